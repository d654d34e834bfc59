/**
 * Compress requests in progress per client, so one client cannot fill the whole queue: past
 * its cap it gets 429 while other clients are still served.
 */
export class ClientJobs {
  readonly #counts = new Map<string, number>()

  constructor(readonly cap: number) {}

  /** A release function, or undefined when the client is at its cap. */
  enter(client: string): (() => void) | undefined {
    const count = this.#counts.get(client) ?? 0
    if (count >= this.cap) return undefined
    this.#counts.set(client, count + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.#counts.get(client) ?? 1) - 1
      if (left <= 0) this.#counts.delete(client)
      else this.#counts.set(client, left)
    }
  }
}

/** IMGAPI_MAX_CLIENT_JOBS, or half of what the queue admits, at least one. */
export function clientJobCap(setting: number, workers: number, queueLength: number): number {
  return setting > 0 ? setting : Math.max(1, Math.floor((workers + queueLength) / 2))
}
