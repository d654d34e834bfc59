/**
 * Inputs whose job lost its worker to a kill nobody in the server sent (the kernel's OOM killer,
 * a container runtime), remembered for a few minutes. Once is the machine's doing, and the job
 * is retried; the same input lost again soon after is most likely the cause, and is answered as
 * the image's fault instead of costing another worker each time a client retries.
 */
const REMEMBER_MS = 5 * 60_000
/** A flood of distinct inputs cannot grow this without bound. */
const MAX_REMEMBERED = 1024

export class LostInputs {
  readonly #lostAt = new Map<string, number>()

  has(input: Uint8Array, now = performance.now()): boolean {
    const at = this.#lostAt.get(fingerprint(input))
    return at !== undefined && now - at < REMEMBER_MS
  }

  add(input: Uint8Array, now = performance.now()): void {
    for (const [key, at] of this.#lostAt) if (now - at >= REMEMBER_MS) this.#lostAt.delete(key)
    const key = fingerprint(input)
    this.#lostAt.delete(key)
    this.#lostAt.set(key, now)
    // A Map iterates in insertion order: the first key is the oldest.
    if (this.#lostAt.size > MAX_REMEMBERED) this.#lostAt.delete(this.#lostAt.keys().next().value!)
  }
}

function fingerprint(input: Uint8Array): string {
  return `${input.byteLength}:${Bun.hash(input).toString(36)}`
}
