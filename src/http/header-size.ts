/**
 * The size of a request's head as the client sent it: request line plus header lines. Bun
 * refuses heads over its own (larger) limit with a bare 431 before any code runs; below that,
 * the application's limit is checked here and answered in problem+json.
 */
export function requestHeadBytes(request: Request, target: string): number {
  let bytes = request.method.length + target.length + 12 // ' ' + target + ' HTTP/1.1\r\n'
  for (const [name, value] of request.headers) bytes += name.length + value.length + 4 // ': ' + '\r\n'
  return bytes + 2
}
