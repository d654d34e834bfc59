import type { SentRequest } from './request.ts'

/**
 * The shell variable the curl command reads the API key from. A command that shows the key would
 * leave it in shell history, screenshots and pasted snippets; a masked one would fail with 401
 * when run. The variable keeps it out of sight and the command still works once it is set.
 */
export const KEY_VARIABLE = 'IMGAPI_KEY'
const KEY_HEADER = `"Authorization: Bearer $${KEY_VARIABLE}"`

/** POSIX shell quoting: single quotes, with any single quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** The curl command that sends what the tester sent; `saveAs` writes an image answer to a file. */
export function curlCommand(request: SentRequest, saveAs?: string): string {
  const parts = ['curl']
  const headers = request.headers.flatMap(([name, value]) => ['-H', shellQuote(`${name}: ${value}`)])
  if (request.apiKey) headers.push('-H', KEY_HEADER)
  if (request.method === 'GET') parts.push('-i', ...headers)
  else {
    if (request.file) parts.push('-F', shellQuote(`file=@${request.file.name}`))
    if (request.overlay) parts.push('-F', shellQuote(`overlay=@${request.overlay.name}`))
    for (const [name, value] of request.fields) parts.push('-F', shellQuote(`${name}=${value}`))
    parts.push(...headers, '-D', '-')
    if (saveAs) parts.push('-o', shellQuote(saveAs))
  }
  parts.push(shellQuote(request.url))
  return parts.join(' ')
}
