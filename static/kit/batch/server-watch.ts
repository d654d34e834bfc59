/**
 * Waits for a server that stopped answering (restarting, or the connection gone) to answer again:
 * asks `reachable` (GET /api/health) after a pause that doubles each time, up to a cap, so a
 * short restart is noticed within a second and a long outage costs a request every few seconds.
 */
const FIRST_CHECK_MS = 500
const LONGEST_PAUSE_MS = 8000

export class ServerWatch {
  #pause = FIRST_CHECK_MS
  #timer: ReturnType<typeof setTimeout> | undefined
  #watching = false

  constructor(
    private readonly reachable: () => Promise<boolean>,
    private readonly onBack: () => void,
  ) {}

  /** True from the first unanswered request until the server answers again. */
  get down(): boolean {
    return this.#watching
  }

  /** A request got no answer: start watching, unless already. */
  lost(): void {
    if (this.#watching) return
    this.#watching = true
    this.#pause = FIRST_CHECK_MS
    this.#schedule()
  }

  stop(): void {
    clearTimeout(this.#timer)
    this.#watching = false
  }

  #schedule(): void {
    this.#timer = setTimeout(async () => {
      const back = await this.reachable().catch(() => false)
      if (!this.#watching) return
      if (back) {
        this.#watching = false
        return this.onBack()
      }
      this.#pause = Math.min(LONGEST_PAUSE_MS, this.#pause * 2)
      this.#schedule()
    }, this.#pause)
  }
}
