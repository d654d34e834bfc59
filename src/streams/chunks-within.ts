/**
 * Reading a stream against a deadline, for request bodies and URL sources alike. Past the
 * deadline the read is cancelled, which ends the pending read(). Not a race against a timer's
 * promise: every Promise.race on one long-lived promise adds a reaction to it that keeps that
 * read's result alive, so a body held open part-way was held twice, every chunk it had sent kept
 * until the request ended.
 */
export class StreamEnded extends Error {
  constructor(
    /** The deadline passed, or the stream broke (the other side went away). */
    readonly why: 'expired' | 'broken',
    readonly received: number,
    cause?: unknown,
  ) {
    super(`the stream ${why === 'expired' ? 'ran past its deadline' : 'broke'} after ${received} bytes`, {
      cause,
    })
    this.name = 'StreamEnded'
  }
}

/** The stream's chunks until its end; throws StreamEnded when the deadline (performance.now()) passes or it breaks. */
export async function* chunksWithin(
  stream: ReadableStream<Uint8Array>,
  deadline: number,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  let expired = false
  const timer = setTimeout(
    () => {
      expired = true
      reader.cancel().catch(() => {})
    },
    Math.max(0, Math.round(deadline - performance.now())),
  )
  let received = 0
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>
      try {
        next = await reader.read()
      } catch (error) {
        throw new StreamEnded(expired ? 'expired' : 'broken', received, error)
      }
      if (expired) throw new StreamEnded('expired', received)
      if (next.done) return
      received += next.value.byteLength
      yield next.value
    }
  } finally {
    clearTimeout(timer)
    reader.cancel().catch(() => {})
  }
}
