import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { readdirSync, readFileSync } from 'node:fs'
import { allowedCpus, parseCpuList, workerCpus } from '../../src/jobs/cpu-affinity.ts'
import { spawnApi, type Api } from '../helpers/api.ts'
import { childPids } from '../helpers/leftover-processes.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'
import { waitUntil } from '../helpers/services.ts'

/*
 * Worker processes pinned to CPUs of their own (IMGAPI_PIN_WORKERS). What pinning buys is the
 * benchmark's (bench:peers --isolation); here, that every thread of a worker runs where the
 * pool put it, that a replacement takes the CPU its predecessor left, and that `off` pins nothing.
 */

describe('which CPUs workers are pinned to', () => {
  test('reads a Cpus_allowed_list with ranges and single CPUs, and nothing from a value it cannot read', () => {
    expect(parseCpuList('0-3,8,10-11\n')).toEqual([0, 1, 2, 3, 8, 10, 11])
    expect(parseCpuList('5')).toEqual([5])
    expect(parseCpuList('0-1,x')).toEqual([])
  })

  test('auto pins only when the workers are as many as the CPUs; on always; off never; one CPU never', () => {
    expect(workerCpus('auto', 2, [0, 1])).toEqual([0, 1])
    expect(workerCpus('auto', 1, [0, 1])).toBeUndefined()
    expect(workerCpus('auto', 4, [0, 1])).toBeUndefined()
    expect(workerCpus('on', 4, [2, 3])).toEqual([2, 3])
    expect(workerCpus('off', 2, [0, 1])).toBeUndefined()
    expect(workerCpus('on', 2, [0])).toBeUndefined()
  })
})

/** Each thread's allowed CPUs, as the kernel reports them, for every thread of `pid`. */
function threadCpus(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map(
    (task) =>
      /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/task/${task}/status`, 'latin1'))![1]!,
  )
}

/**
 * Every thread on the same single CPU. A worker pins the threads of its first job after
 * answering it, so just after that answer it can still show a range such as 0-1: not yet.
 */
const onOneCpu = (cpus: string[]) => cpus.length === 1 && /^\d+$/.test(cpus[0]!)

const twoCpus = process.platform === 'linux' && allowedCpus().length >= 2
if (!twoCpus) console.log('[skipped] worker pinning: this machine lets the tests run on fewer than 2 CPUs')

describe.if(twoCpus)('workers pinned to CPUs', () => {
  const [first, second] = allowedCpus()
  let photo: Uint8Array
  beforeAll(async () => {
    photo = await fixture('photo-exif-orientation-6.jpg')
  })

  /**
   * Both workers run a job, so that every thread a job starts exists when they are read. On a
   * loaded machine a quick job may be refused as too busy (503, retry later): that is an answer,
   * not a fault, and the pair is sent again; any other status fails the test.
   */
  const busyBoth = async (api: Api) => {
    const statuses = await Promise.all(
      [1, 2].map(() => api.fetch('/api/compress?format=webp', rawBody(photo)).then((r) => r.status)),
    )
    expect(statuses.filter((status) => status !== 503)).toEqual(statuses.filter((status) => status === 200))
    return statuses.every((status) => status === 200)
  }

  describe('on', () => {
    let api: Api
    beforeAll(async () => {
      api = await spawnApi({ workers: 2, pinWorkers: 'on', jobTimeoutMs: 1500 })
    })
    afterAll(() => api.stop())

    test('every thread of each worker runs on one CPU, a different one for each worker', async () => {
      // A worker pins the threads its first job starts after that job; pairs of quick jobs are
      // sent until both workers have run one.
      let pinned: string[][] = []
      await waitUntil(async () => {
        if (!(await busyBoth(api))) return false
        pinned = childPids(api.process!.pid).map((pid) => [...new Set(threadCpus(pid))])
        return pinned.length === 2 && pinned.every(onOneCpu)
      }, 'both workers to have run a job')
      expect(pinned.map((cpus) => cpus[0]).sort()).toEqual([String(first), String(second)].sort())
      // The server itself is not pinned: it runs wherever this test may.
      expect(new Set(threadCpus(api.process!.pid))).toEqual(new Set(threadCpus(process.pid)))
    })

    test('a worker killed at its job timeout is replaced on the CPU it left, before the kernel has reaped it', async () => {
      const before = childPids(api.process!.pid)
      // 12 MP of noise to AVIF at effort 9: minutes of work, stopped at the job timeout.
      const noise = await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .jpeg({ quality: 90 })
        .toBuffer()
      const slow = await api.fetch('/api/compress?format=avif&effort=9', rawBody(new Uint8Array(noise)))
      // Killed at its CPU time (422), or, on a machine too loaded to give it that time, at its
      // wall-clock ceiling (503): either way its worker is gone and replaced.
      expect([422, 503]).toContain(slow.status)
      await waitUntil(() => {
        const now = childPids(api.process!.pid)
        return now.length === 2 && now.some((pid) => !before.includes(pid))
      }, 'a replacement worker')
      // Threads a worker starts with its first job are pinned after it; one worker may serve
      // both of a pair of quick jobs while the replacement is still starting, so pairs are sent
      // until both have run one.
      let cpus: string[][] = []
      await waitUntil(async () => {
        if (!(await busyBoth(api))) return false
        cpus = childPids(api.process!.pid).map((pid) => [...new Set(threadCpus(pid))])
        return cpus.length === 2 && cpus.every(onOneCpu)
      }, 'both workers to have run a job')
      expect(cpus.map((each) => each[0]).sort()).toEqual([String(first), String(second)].sort())
    })
  })

  describe('off', () => {
    let api: Api
    beforeAll(async () => {
      api = await spawnApi({ workers: 2, pinWorkers: 'off' })
    })
    afterAll(() => api.stop())

    test('workers run wherever the server may', async () => {
      await waitUntil(() => busyBoth(api), 'both workers to have run a job')
      const everywhere = new Set(threadCpus(process.pid))
      for (const pid of childPids(api.process!.pid)) expect(new Set(threadCpus(pid))).toEqual(everywhere)
    })
  })
})
