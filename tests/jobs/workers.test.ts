import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { readFileSync } from 'node:fs'
import { spawnApi, type Api } from '../helpers/api.ts'
import { childPids, cpuTicks } from '../helpers/leftover-processes.ts'
import { fixture } from '../helpers/paths.ts'
import { parseMetrics, valueOf } from '../helpers/prometheus.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'
import { waitUntil } from '../helpers/services.ts'

/*
 * Jobs run in worker processes: a job over its time or its memory is answered and its worker
 * killed, a worker that dies takes one request with it, and the server serves on. Each server
 * here is a real process (or the executable, in test:binary) with its own workers. Margins are
 * those a busy 2-core machine keeps; the precise figures are the benchmark's (bench:hardening).
 */

/** 12 MP of noise as a JPEG: the slowest content there is for AVIF, at effort 9 minutes of work. */
async function noisePhoto(width: number, height: number): Promise<Uint8Array> {
  const raw = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer()
  return new Uint8Array(raw)
}

interface Health {
  status: string
  queue: { running: number }
  workers: { alive: number; size: number; restartsLastMinute: number; ready: boolean; kind: string }
}

const metric = async (api: Api, name: string, labels: Record<string, string> = {}) =>
  valueOf(parseMetrics(await (await api.fetch('/metrics')).text()), name, labels)

const health = async (api: Api): Promise<{ status: number; body: Health }> => {
  const response = await api.fetch('/api/health')
  return { status: response.status, body: (await response.json()) as Health }
}

/** The worker busy with a job: of the server's children, the one whose CPU time grows. */
async function busyWorker(api: Api): Promise<number> {
  // A worker just killed may still be listed while the kernel reaps it.
  const ticks = (pid: number) => {
    try {
      return cpuTicks(pid)
    } catch {
      return Number.NaN
    }
  }
  const workers = childPids(api.process!.pid)
  const before = workers.map(ticks)
  await Bun.sleep(500)
  const grown = workers.map((pid, i) => ticks(pid) - before[i]! || -1)
  return workers[grown.indexOf(Math.max(...grown))]!
}

describe('jobs in worker processes', () => {
  let photo: Uint8Array
  let tiny: Uint8Array
  beforeAll(async () => {
    photo = await noisePhoto(4000, 3000)
    tiny = await fixture('png-tiny-1x1-prophoto-icc.png')
  })

  describe('a job over its time', () => {
    let api: Api
    const jobTimeoutMs = 2000
    beforeAll(async () => {
      api = await spawnApi({ workers: 2, jobTimeoutMs })
    })
    afterAll(() => api.stop())

    test('a 12 MP AVIF at effort 9 gets 422 PROCESSING_TIMEOUT before twice its timeout, health answers throughout, and its worker is replaced', async () => {
      const started = performance.now()
      const slow = api.fetch('/api/compress?format=avif&effort=9', rawBody(photo))
      let answered = false
      const healthDuring: number[] = []
      void slow.finally(() => (answered = true))
      // Another worker serves meanwhile, and the server's own thread keeps answering health.
      await Bun.sleep(300)
      const meanwhile = await api.fetch('/api/compress?format=webp', rawBody(tiny))
      expect(meanwhile.status).toBe(200)
      while (!answered) {
        healthDuring.push((await health(api)).status)
        await Bun.sleep(100)
      }
      const response = await slow
      const elapsed = performance.now() - started
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code]).toEqual([422, 'PROCESSING_TIMEOUT'])
      expect(response.headers.get('retry-after')).toBeNull()
      expect(elapsed).toBeLessThan(jobTimeoutMs * 2)
      expect(healthDuring.length).toBeGreaterThan(0)
      expect(healthDuring.every((status) => status === 200)).toBe(true)
      // The killed encode would run for minutes; the next job is served now.
      const next = await api.fetch('/api/compress?format=avif&width=64', rawBody(tiny))
      expect(next.status).toBe(200)
      await waitUntil(async () => (await health(api)).body.workers.alive === 2, 'the pool to be whole again')
      const { body } = await health(api)
      expect(body.workers).toMatchObject({ kind: 'processes', alive: 2, size: 2 })
      expect(body.workers.restartsLastMinute).toBeGreaterThanOrEqual(1)
      expect(await metric(api, 'imgapi_worker_stops_total', { reason: 'timeout', format: 'jpeg' })).toBe(1)
      expect(await metric(api, 'imgapi_worker_restarts_total')).toBeGreaterThanOrEqual(1)
      expect(await metric(api, 'imgapi_workers_alive')).toBe(2)
    }, 60_000)

    test('a variants list over its time keeps the variants finished before it and answers the rest with their problem', async () => {
      const variants = [
        { width: 64, format: 'webp' },
        { format: 'avif', effort: 9 },
        { width: 32, format: 'jpeg' },
      ]
      const started = performance.now()
      const response = await api.fetch(
        `/api/compress?variants=${encodeURIComponent(JSON.stringify(variants))}`,
        { ...rawBody(photo), headers: { accept: 'application/json' } },
      )
      expect(response.status).toBe(200)
      expect(performance.now() - started).toBeLessThan(jobTimeoutMs * 2)
      // Two parts run at once, the slowest first: the small ones finish beside the AVIF.
      expect(response.headers.get('x-variants-failed')).toBe('1')
      const body = (await response.json()) as { variants: { width?: number; problem?: { code: string } }[] }
      expect(body.variants.map((entry) => entry.width ?? entry.problem?.code)).toEqual([
        64,
        'PROCESSING_TIMEOUT',
        32,
      ])
      // Its worker was killed at the job's time; the next request is served by a fresh one.
      expect((await api.fetch('/api/compress?format=webp', rawBody(tiny))).status).toBe(200)
    }, 60_000)

    test('a blur SVG that would render for a minute is stopped at its time, and a tiny PNG sent meanwhile is served at once', async () => {
      const blur = new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9999" height="9999"><filter id="b"><feGaussianBlur stdDeviation="40"/></filter><rect width="9999" height="9999" fill="#c30" filter="url(#b)"/></svg>',
      )
      const slow = api.fetch('/api/compress?format=jpeg', rawBody(blur, 'image/svg+xml'))
      await Bun.sleep(300)
      const quick = await api.fetch('/api/compress?format=png', rawBody(tiny))
      let slowDone = false
      void slow.finally(() => (slowDone = true))
      expect(quick.status).toBe(200)
      // The tiny PNG did not wait for the render.
      expect(slowDone).toBe(false)
      const problem = await problemOf(await slow)
      expect([problem.httpStatus, problem.code]).toEqual([422, 'PROCESSING_TIMEOUT'])
      await waitUntil(async () => (await health(api)).body.workers.alive === 2, 'the pool to be whole again')
    }, 60_000)
  })

  describe('a worker that dies', () => {
    let api: Api
    let photo12: Uint8Array
    beforeAll(async () => {
      api = await spawnApi({ workers: 2, jobTimeoutMs: 120_000 })
      // About 2 s of WebP at effort 4: long enough to find its worker and kill it.
      photo12 = await noisePhoto(4000, 3000)
    })
    afterAll(() => api.stop())

    const startedWork = async (path: string, body: Uint8Array) => {
      const answer = api.fetch(path, rawBody(body))
      await waitUntil(async () => (await health(api)).body.queue.running === 1, 'the job to start')
      return { answer, worker: await busyWorker(api) }
    }

    test('its codec crashing (SIGSEGV) mid-job: that request gets 422 CODEC_CRASHED, the other in flight finishes, the server serves on', async () => {
      const { answer: doomed, worker } = await startedWork('/api/compress?format=avif&effort=9', photo)
      const other = api.fetch('/api/compress?format=webp&width=800', rawBody(photo))
      process.kill(worker, 'SIGSEGV')
      const problem = await problemOf(await doomed)
      expect([problem.httpStatus, problem.code]).toEqual([422, 'CODEC_CRASHED'])
      expect(problem.detail).not.toMatch(/SIGSEGV|SIGKILL|signal|exit/i)
      const survivor = await other
      expect(survivor.status).toBe(200)
      expect((await sharp(new Uint8Array(await survivor.arrayBuffer())).metadata()).width).toBe(800)
      expect((await health(api)).status).toBe(200)
      await waitUntil(async () => (await health(api)).body.workers.alive === 2, 'the pool to be whole again')
    }, 120_000)

    test('killed from outside (SIGKILL, as the OOM killer does) mid-job: the job runs again on a fresh worker and is answered', async () => {
      const lostBefore = await metric(api, 'imgapi_worker_stops_total', { reason: 'lost', format: 'jpeg' })
      const { answer, worker } = await startedWork('/api/compress?format=webp', photo12)
      process.kill(worker, 'SIGKILL')
      const response = await answer
      expect(response.status).toBe(200)
      const meta = await sharp(new Uint8Array(await response.arrayBuffer())).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 4000, 3000])
      expect(await metric(api, 'imgapi_worker_stops_total', { reason: 'lost', format: 'jpeg' })).toBe(
        lostBefore + 1,
      )
      expect(await metric(api, 'imgapi_worker_stops_total', { reason: 'crash', format: 'jpeg' })).toBe(1)
    }, 120_000)

    test('killed from outside twice: 503 WORKER_LOST with Retry-After; the same image lost again minutes later is 422', async () => {
      const input = await noisePhoto(4000, 2999)
      const first = await startedWork('/api/compress?format=webp', input)
      process.kill(first.worker, 'SIGKILL')
      // The retry, on a fresh worker: killed too.
      await waitUntil(async () => {
        const busy = childPids(api.process!.pid).filter((pid) => pid !== first.worker)
        return (await health(api)).body.queue.running === 1 && busy.length > 0
      }, 'the retry to start')
      process.kill(await busyWorker(api), 'SIGKILL')
      const lost = await first.answer
      const problem = await problemOf(lost)
      expect([problem.httpStatus, problem.code]).toEqual([503, 'WORKER_LOST'])
      expect(Number(lost.headers.get('retry-after'))).toBeGreaterThan(0)
      // A client that retries the 503 costs one more worker at most, then hears it is the image.
      const again = await startedWork('/api/compress?format=webp', input)
      process.kill(again.worker, 'SIGKILL')
      const blamed = await problemOf(await again.answer)
      expect([blamed.httpStatus, blamed.code]).toEqual([422, 'CODEC_CRASHED'])
      expect(blamed.detail).toContain('killed from outside again')
      await waitUntil(async () => (await health(api)).body.workers.alive === 2, 'the pool to be whole again')
      expect((await api.fetch('/api/compress?format=png', rawBody(tiny))).status).toBe(200)
    }, 120_000)
  })

  describe('workers that stop answering (SIGSTOP)', () => {
    let api: Api
    const jobTimeoutMs = 2000
    beforeAll(async () => {
      api = await spawnApi({ workers: 2, warmWorkers: true, jobTimeoutMs })
      await waitUntil(async () => {
        const { workers } = (await health(api)).body
        return workers.ready && workers.alive === 2 && childPids(api.process!.pid).length === 2
      }, 'both workers to be ready')
    })
    afterAll(() => api.stop())

    test('with both idle workers frozen, a job is served by new ones within seconds, and the frozen ones are replaced', async () => {
      const frozen = childPids(api.process!.pid)
      for (const pid of frozen) process.kill(pid, 'SIGSTOP')
      const started = performance.now()
      const response = await api.fetch('/api/compress?format=png', rawBody(tiny))
      expect(response.status).toBe(200)
      // Well before the 30 s a job would once have waited on a frozen worker.
      expect(performance.now() - started).toBeLessThan(15_000)
      await waitUntil(async () => {
        const alive = childPids(api.process!.pid)
        return (await health(api)).body.workers.alive === 2 && frozen.every((pid) => !alive.includes(pid))
      }, 'the frozen workers to be replaced')
    }, 60_000)

    test('a job whose worker gets no CPU time (frozen mid-job) is stopped at twice its timeout as load: 503 OVERLOADED, not 422', async () => {
      const answer = api.fetch('/api/compress?format=avif&effort=9', rawBody(photo))
      await waitUntil(async () => (await health(api)).body.queue.running === 1, 'the job to start')
      process.kill(await busyWorker(api), 'SIGSTOP')
      const response = await answer
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code]).toEqual([503, 'OVERLOADED'])
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await metric(api, 'imgapi_worker_stops_total', { reason: 'overloaded', format: 'jpeg' })).toBe(1)
      await waitUntil(async () => (await health(api)).body.workers.alive === 2, 'the pool to be whole again')
    }, 60_000)
  })

  describe('a worker that retires after a job', () => {
    let api: Api
    beforeAll(async () => {
      api = await spawnApi({ workers: 1 })
    })
    afterAll(() => api.stop())

    test('a large JPEG XL leaves its worker with more memory than it may keep: it retires, and the next jobs are served, none counted as a crash', async () => {
      // 24 MP of one colour, 3.5 KB as JPEG XL: its WebAssembly decoder's memory never shrinks.
      const jxl = await fixture('jxl-flat-6000x4000.jxl')
      const big = await api.fetch('/api/compress?format=png&width=100', rawBody(jxl))
      expect(big.status).toBe(200)
      for (let i = 0; i < 3; i++)
        expect((await api.fetch('/api/compress?format=png', rawBody(tiny))).status).toBe(200)
      expect(await metric(api, 'imgapi_worker_recycles_total')).toBeGreaterThanOrEqual(1)
      expect(await metric(api, 'imgapi_worker_restarts_total')).toBe(0)
      for (const format of ['jxl', 'png'])
        expect(await metric(api, 'imgapi_worker_stops_total', { reason: 'crash', format })).toBe(0)
    }, 60_000)
  })

  describe('a job over its memory', () => {
    let api: Api
    beforeAll(async () => {
      api = await spawnApi({ workers: 1, maxWorkerMemoryBytes: 64 * 1024 * 1024 })
    })
    afterAll(() => api.stop())

    test('an enlargement past the per-worker limit gets 422 IMAGE_TOO_LARGE, and the server serves on', async () => {
      // libwebp holds the whole 6000x6000 picture (144 MB as RGBA): admitted by the decode budget, stopped by its worker's limit.
      const response = await api.fetch(
        '/api/compress?format=webp&width=6000&height=6000&fit=fill&withoutEnlargement=false',
        rawBody(tiny),
      )
      const problem = await problemOf(response)
      expect([problem.httpStatus, problem.code]).toEqual([422, 'IMAGE_TOO_LARGE'])
      expect(problem.detail).toContain('MiB')
      const next = await api.fetch('/api/compress?format=png', rawBody(tiny))
      expect(next.status).toBe(200)
      await waitUntil(async () => (await health(api)).body.workers.alive === 1, 'the pool to be whole again')
    }, 60_000)
  })
  describe('one worker, jobs one after another', () => {
    let api: Api
    beforeAll(async () => {
      api = await spawnApi({ workers: 1 })
    })
    afterAll(() => api.stop())

    test('a large input, a small one, then the large again: each answer is its own image, whole', async () => {
      // The worker reads each job into the buffer the last one used: a shorter job must not see
      // the longer one's tail, nor a longer one a stale head.
      const large = await noisePhoto(1200, 800)
      for (const [input, width, height] of [
        [large, 1200, 800],
        [tiny, 1, 1],
        [large, 1200, 800],
      ] as const) {
        const response = await api.fetch('/api/compress?format=png', rawBody(input))
        expect(response.status).toBe(200)
        const meta = await sharp(new Uint8Array(await response.arrayBuffer())).metadata()
        expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height])
      }
    }, 60_000)
  })

  describe('a server that dies mid-job', () => {
    test('killed (SIGKILL) while its worker encodes for minutes: the worker ends within seconds, not when the encode does', async () => {
      const api = await spawnApi({ workers: 1, jobTimeoutMs: 600_000 })
      try {
        // Gone, or a zombie waiting for whoever adopted it to reap it: either way it runs no more.
        const running = (pid: number) => {
          try {
            return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))
          } catch {
            return false
          }
        }
        const slow = api.fetch('/api/compress?format=avif&effort=9', rawBody(photo)).catch(() => undefined)
        let worker = 0
        await waitUntil(() => {
          worker = childPids(api.process!.pid).find((pid) => running(pid) && cpuTicks(pid) > 100) ?? 0
          return worker > 0
        }, 'the worker to be a second into the encode')
        expect(running(worker)).toBe(true)
        api.process!.kill('SIGKILL')
        await slow
        await waitUntil(() => !running(worker), 'the orphaned worker to end', 5_000)
      } finally {
        await api.stop()
      }
    }, 60_000)
  })
})
