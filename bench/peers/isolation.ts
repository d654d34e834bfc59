/*
 * bench:peers --isolation: the peer workload asked of imgapi twice, with its jobs in worker
 * processes (the default) and in the server's own process (IMGAPI_IN_PROCESS_JOBS=true), in
 * alternating rounds whose order swaps every round. Where jobs are small (256 px thumbnails),
 * what each job costs beside its encode weighs most, which the photo workload of `npm run bench`
 * hides.
 */
import { availableParallelism } from 'node:os'
import { median, roundRatios } from '../common/figures.ts'
import { ISOLATION_GOAL } from '../common/goals.ts'
import { startServer, type ServerHandle } from '../common/server.ts'
import { imgapiEncode, type Photo } from './clients.ts'
import { measureSides } from './measure.ts'
import { buildRows } from './rows.ts'

type Mode = 'workers' | 'in-process jobs'

async function startImgapi(repoRoot: string, inProcessJobs: boolean): Promise<ServerHandle> {
  return startServer({
    repoRoot,
    env: {
      IMGAPI_WORKERS: String(availableParallelism()),
      IMGAPI_LOG_LEVEL: 'error',
      IMGAPI_IN_PROCESS_JOBS: String(inProcessJobs),
    },
  })
}

export async function measureIsolation(
  repoRoot: string,
  photos: readonly Photo[],
  rounds: number,
  log: (line: string) => void,
): Promise<{ lines: string[]; failures: string[] }> {
  const workers = await startImgapi(repoRoot, false)
  const inProcess = await startImgapi(repoRoot, true).catch(async (error) => {
    await workers.stop()
    throw error
  })
  const lines = [
    `worker processes / jobs in the server process, bench:peers rows (goal >= ${ISOLATION_GOAL}, median of each round's ratio):`,
  ]
  const failures: string[] = []
  try {
    for (const row of buildRows([], photos.length)) {
      const run = await measureSides(
        row,
        photos,
        {
          workers: { server: workers, encode: imgapiEncode(workers.baseUrl, row) },
          'in-process jobs': { server: inProcess, encode: imgapiEncode(inProcess.baseUrl, row) },
        },
        rounds,
        log,
      )
      failures.push(...run.failures)
      const rate = (mode: Mode) => run.rounds[mode].map((figures) => figures.requestsPerSecond)
      const { ratios, ratio, met } = roundRatios(run.rounds.workers, run.rounds['in-process jobs'])
      const verdict = met ? 'met' : 'MISSED'
      lines.push(
        `  ${row.name.padEnd(16)} ratio ${ratio.toFixed(2)} ${verdict.padEnd(6)} rounds ${ratios.map((r) => r.toFixed(2)).join(' ')} | req/s ${median(rate('workers')).toFixed(2)} against ${median(rate('in-process jobs')).toFixed(2)}`,
      )
    }
  } finally {
    await Promise.all([workers.stop(), inProcess.stop()])
  }
  return { lines, failures }
}
