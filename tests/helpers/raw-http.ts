import { connect, type Socket } from 'node:net'

/**
 * HTTP/1.x by hand, for what fetch() will not send: a hostile Host, HTTP/1.0 without one,
 * oversized heads, pipelined requests, bodies that trickle or stop half-way.
 */
export interface RawResponse {
  readonly status: number
  readonly headers: ReadonlyMap<string, string>
  readonly body: string
}

export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = []
  let rest = text
  while (rest.startsWith('HTTP/')) {
    const headEnd = rest.indexOf('\r\n\r\n')
    if (headEnd === -1) break
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n')
    const headers = new Map(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    )
    const length = Number(headers.get('content-length') ?? 0)
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(headEnd + 4, headEnd + 4 + length),
    })
    rest = rest.slice(headEnd + 4 + length)
  }
  return responses
}

export interface RawExchange {
  readonly text: string
  readonly responses: RawResponse[]
  /** The server closed the connection (rather than the client timing out). */
  readonly closedByServer: boolean
}

/**
 * Opens a connection to `url`'s host and port and hands the socket to `drive`; collects until
 * the server closes, `timeoutMs`, or (when given) `responses` whole responses have come.
 */
export function rawExchange(
  url: string,
  drive: (socket: Socket) => void | Promise<void>,
  timeoutMs = 5000,
  responses = Infinity,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    let text = ''
    let done = false
    const finish = (closedByServer: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ text, responses: parseResponses(text), closedByServer })
    }
    const socket = connect(Number(port), hostname, () => void drive(socket))
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1')
      // Parsed again on each chunk only when asked to stop early: a large answer stays linear.
      if (responses === Infinity) return
      const got = parseResponses(text)
      const last = got.at(-1)
      const whole = last && last.body.length === Number(last.headers.get('content-length') ?? 0)
      if (got.length >= responses && whole) finish(false)
    })
    socket.on('close', () => finish(true))
    socket.on('error', () => finish(true))
    const timer = setTimeout(() => finish(false), timeoutMs)
  })
}

/** Sends `request` as is and collects what comes back until the server closes or `timeoutMs`. */
export function rawRequest(
  url: string,
  request: string | Uint8Array,
  timeoutMs = 5000,
): Promise<RawExchange> {
  return rawExchange(url, (socket) => void socket.write(request), timeoutMs)
}
