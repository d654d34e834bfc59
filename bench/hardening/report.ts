/* One block per scenario and a summary table, as plain text. */
import { availableParallelism } from 'node:os'
import type { CpuWait } from './cpu-wait.ts'
import type { ScenarioResult } from './harness.ts'
import { mib } from './memory.ts'
import { PROBE_EVERY_MS, PROBE_TIMEOUT_MS } from './probe-worker.ts'

/** Above this many CPUs busy elsewhere, timings say as much about the neighbours as about the server. */
const NOISY_OTHER_CPUS = 0.2

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')

function settings(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .filter(([name]) => name !== 'IMGAPI_LOG_LEVEL')
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')
}

export function formatBlock(result: ScenarioResult): string {
  const { scenario, outcome, health, memory } = result
  const lines = [`== ${scenario.name}: ${scenario.attack}`, `settings: ${settings(result.env)}`]
  if (result.skipped) return [...lines, `SKIPPED: ${result.skipped}`].join('\n')
  if (memory) {
    lines.push(`budgets: upload ${mib(memory.uploadBudgetBytes)}, decode ${mib(memory.decodeBudgetBytes)}`)
  }
  if (outcome) lines.push(`statuses: ${outcome.tally.format()}`, ...outcome.lines)
  if (health) {
    lines.push(
      `health (every ${PROBE_EVERY_MS} ms, ${PROBE_TIMEOUT_MS} ms timeout): ${health.count} probes, ` +
        `max ${Math.round(health.maxMs)} ms, p99 ${Math.round(health.p99Ms)} ms, ${health.failures} failures` +
        (health.draining ? `, ${health.draining} answered "draining"` : ''),
      `health saw at most: uploads ${mib(health.peakUploadsBytes)}, ${health.peakWaiting} waiting, ` +
        `${health.peakRunning} running, decode ${mib(health.peakDecodeBytes)} reserved`,
    )
    if (health.lowestWaiting < 0) {
      lines.push(`NOTE: health reported queue.waiting = ${health.lowestWaiting}, a negative count`)
    }
  }
  if (memory) {
    lines.push(
      `memory: idle ${mib(memory.idleBytes)} + upload ${mib(memory.uploadBudgetBytes)} + decode ` +
        `${mib(memory.decodeBudgetBytes)}${memory.keptBytes ? ` + kept by workers ${mib(memory.keptBytes)}` : ''} = bound ${mib(memory.boundBytes)}; peak RSS (VmHWM) ` +
        `${mib(memory.peakBytes)} = ${(memory.peakBytes / memory.boundBytes).toFixed(2)} × bound ` +
        `(sampled VmRSS max ${mib(memory.sampledBytes)})`,
    )
  }
  if (result.otherCpus !== undefined) lines.push(noise(result.otherCpus, result.seconds))
  if (result.cpuWait) lines.push(cpuWaitLine(result.cpuWait.server, result.cpuWait.client))
  if (result.clientLag) {
    const { p99Ms, maxMs } = result.clientLag
    lines.push(
      `client event-loop lag (inflates its latencies, not health's): p99 ${Math.round(p99Ms)} ms, max ${Math.round(maxMs)} ms`,
    )
  }
  for (const g of result.goals) lines.push(`${verdict(g.pass)} ${g.name}: ${g.evidence}`)
  return lines.join('\n')
}

function noise(otherCpus: number, seconds: number): string {
  const text = `other processes kept ${otherCpus.toFixed(2)} of ${availableParallelism()} CPUs busy (${seconds.toFixed(0)} s)`
  return otherCpus > NOISY_OTHER_CPUS ? `NOISE: ${text}; latencies are inflated by it` : `noise: ${text}`
}

function cpuWaitLine(server: CpuWait, client: CpuWait): string {
  const share = (w: CpuWait) =>
    `${(w.waitedMs / 1000).toFixed(1)} s (${Math.round((100 * w.waitedMs) / w.wallMs)}%)`
  return `waiting for a CPU (run queue) over ${(server.wallMs / 1000).toFixed(0)} s: server main thread ${share(server)}, client main thread ${share(client)}`
}

export function formatSummary(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'result', 'health max', 'peak / bound', 'goals', 'noise']
  const rows = results.map((r) => {
    const failed = r.goals.filter((g) => !g.pass).length
    return [
      r.scenario.name,
      r.skipped ? 'SKIPPED' : verdict(failed === 0),
      r.health ? `${Math.round(r.health.maxMs)} ms` : '-',
      r.memory ? `${mib(r.memory.peakBytes)} / ${mib(r.memory.boundBytes)}` : '-',
      r.skipped ? '-' : `${r.goals.length - failed}/${r.goals.length} pass`,
      r.otherCpus === undefined ? '-' : `${r.otherCpus.toFixed(2)} CPUs`,
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}
