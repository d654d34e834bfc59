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
}
