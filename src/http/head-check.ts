import { AppError } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'
import { requestHeadBytes } from './header-size.ts'
import { hasValidHost, requestTarget } from './request-target.ts'

/** Checks that need nothing but the request line and headers; the first failure is the answer. */
export function checkHead(request: Request, maxHeaderBytes: number): AppError | undefined {
  if (!hasValidHost(request)) {
    return new AppError(
      'MALFORMED_REQUEST',
      `expected a Host header with a valid host name or address and optional port, received ${echo(request.headers.get('host') ?? '(none)')}`,
      { headers: { connection: 'close' } },
    )
  }
  const headBytes = requestHeadBytes(request, requestTarget(request).target)
  if (headBytes > maxHeaderBytes) {
    return new AppError(
      'HEADERS_TOO_LARGE',
      `expected a request line and headers of at most ${maxHeaderBytes} bytes, received ${headBytes}`,
      { headers: { connection: 'close' } },
    )
  }
  return undefined
}
