/** Process state shared by the health endpoint and the signal handlers. */
export class Lifecycle {
  readonly startedAt = performance.now()
  #draining = false

  get draining(): boolean {
    return this.#draining
  }

  startDraining(): void {
    this.#draining = true
  }

  uptimeSeconds(): number {
    return Math.floor((performance.now() - this.startedAt) / 1000)
  }
}
