/* Counts what came back: answers by status and problem code, network errors apart, latencies by status. */
import { percentile } from '../common/figures.ts'
import type { Answer } from './requests.ts'

export class Tally {
  readonly answers = new Map<string, number>()
  readonly errors = new Map<string, number>()
  readonly #latencies = new Map<number, number[]>()
  /** Largest body of an error answer, in bytes. */
  largestErrorBytes = 0

  add(answer: Answer): void {
    if (answer.status === undefined) {
      bump(this.errors, answer.error ?? 'unknown')
      return
    }
    bump(this.answers, answer.code ? `${answer.status} ${answer.code}` : String(answer.status))
    const latencies = this.#latencies.get(answer.status) ?? []
    latencies.push(answer.ms)
    this.#latencies.set(answer.status, latencies)
    if (answer.status >= 400) this.largestErrorBytes = Math.max(this.largestErrorBytes, answer.bytes)
  }

  count(status: number): number {
    return this.#latencies.get(status)?.length ?? 0
  }

  get total(): number {
    return sum(this.answers) + sum(this.errors)
  }

  get networkErrors(): number {
    return sum(this.errors)
  }

  /** Statuses seen, e.g. [200, 503]. */
  statuses(): number[] {
    return [...this.#latencies.keys()].sort((a, b) => a - b)
  }

  latency(status: number, p: number): number {
    return percentile(this.#latencies.get(status) ?? [], p)
  }

  /** "200 ×12, 503 OVERLOADED ×40 | network: ECONNRESET ×1" */
  format(): string {
    const list = (counts: Map<string, number>) =>
      [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, n]) => `${key} ×${n}`)
        .join(', ')
    const network = this.errors.size ? list(this.errors) : 'none'
    return `${list(this.answers) || 'no answers'} | network errors: ${network}`
  }

  /** "200: p50 812 ms, p99 2301 ms; 503: ..." */
  formatLatencies(): string {
    return this.statuses()
      .map((s) => `${s}: p50 ${ms(this.latency(s, 50))}, p99 ${ms(this.latency(s, 99))}, n=${this.count(s)}`)
      .join('; ')
  }
}

export const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${Math.round(value)} ms`)

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1)
}

function sum(counts: Map<string, number>): number {
  let total = 0
  for (const n of counts.values()) total += n
  return total
}
