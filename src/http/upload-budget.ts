/**
 * Bytes of request bodies the process holds at once. Each compress request reserves what its
 * body may weigh before a byte of it is read, and gives it back when the request ends, so a
 * flood of uploads is refused at the door instead of being buffered.
 */
export class UploadBudget {
  #used = 0

  constructor(readonly budgetBytes: number) {}

  get usedBytes(): number {
    return this.#used
  }

  /** A release function, or undefined when `bytes` does not fit now. */
  reserve(bytes: number): (() => void) | undefined {
    if (this.#used + bytes > this.budgetBytes) return undefined
    this.#used += bytes
    let released = false
    return () => {
      if (released) return
      released = true
      this.#used -= bytes
    }
  }

  /**
   * A reservation that can shrink once the true size is known: a URL source reserves the
   * upload limit before it connects, and what the origin's Content-Length says once it has
   * answered. Undefined when `bytes` does not fit now.
   */
  reserveShrinkable(bytes: number): { release: () => void; shrinkTo: (smaller: number) => void } | undefined {
    let release = this.reserve(bytes)
    if (!release) return undefined
    let held = bytes
    return {
      release: () => release?.(),
      shrinkTo: (smaller) => {
        if (smaller >= held || !release) return
        // Given back first, then taken again: the smaller amount always fits where the larger did.
        release()
        release = this.reserve(smaller)
        held = smaller
      },
    }
  }
}
