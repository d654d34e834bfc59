import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect, type Socket } from 'node:net'
import sharp from 'sharp'
import { spawnApi, type Api } from '../helpers/api.ts'
import { childPids } from '../helpers/leftover-processes.ts'
import { fixture } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'
import { waitUntil } from '../helpers/services.ts'
import { samplePeak, treeResidentBytes } from '../helpers/tree-memory.ts'
import { residentBytes } from '../../src/jobs/process-stat.ts'

/*
 * The README's memory bound is a promise, so it is tested, not benchmarked: with
 * IMGAPI_MEMORY_LIMIT_BYTES at 1 GiB, the server and its workers together stay under
 *   idle RSS + upload budget + decode budget + what workers keep
 * under the request mixes that once broke it, sampled every 3 ms from /proc.
 */
const MIB = 1024 * 1024
const LIMIT_BYTES = 1024 * MIB
/** A body of this size sent but for its last bytes, and held open. */
const HELD_BYTES = 30 * MIB

interface Planned {
  readonly uploadBudgetBytes: number
  readonly decodeBudgetBytes: number
  readonly workerKeepBytes: number
}

/** Opens a raw upload of `bytes` and sends all of it but its last KiB; the socket is held open. */
function holdUpload(api: Api, bytes: number): Socket {
  const { hostname, port } = new URL(api.url)
  const socket = connect(Number(port), hostname)
  socket.on('error', () => {})
  socket.write(
    `POST /api/compress?format=webp HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${bytes}\r\n\r\n`,
  )
  // Not zeros: a page of zeros written to a fresh buffer still costs a page, but noise rules out
  // any saving a transport or allocator could make on it.
  const body = new Uint8Array(bytes - 1024)
  for (let i = 0; i < body.length; i += 512) body[i] = (i * 2654435761) >>> 24
  socket.write(body)
  return socket
}

async function noiseJpeg(width: number, height: number): Promise<Uint8Array> {
  const create = { width, height, channels: 3 as const, background: '#808080' }
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 50 }
  return new Uint8Array(
    await sharp({ create: { ...create, noise } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  )
}

const blurSvg = (size: number, filter: string) =>
  new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><filter id="f">${filter}</filter><rect width="${size}" height="${size}" fill="#c30" filter="url(#f)"/></svg>`,
  )

describe('the memory bound, with IMGAPI_MEMORY_LIMIT_BYTES at 1 GiB and two workers', () => {
  let api: Api
  let boundBytes: number
  let idleBytes: number
  let tiny: Uint8Array

  beforeAll(async () => {
    tiny = await fixture('png-tiny-1x1-prophoto-icc.png')
    api = await spawnApi({ memoryLimitBytes: LIMIT_BYTES, workers: 2, warmWorkers: true })
    await waitUntil(async () => childPids(api.process!.pid).length === 2, 'both workers to start')
    // Each worker runs a job first, as they will have in service.
    await Promise.all([0, 1].map(() => api.fetch('/api/compress?format=webp', rawBody(tiny))))
    await Bun.sleep(500)
    idleBytes = treeResidentBytes(api.process!.pid)
    const plan = api.startup!.memory as Planned
    boundBytes = idleBytes + plan.uploadBudgetBytes + plan.decodeBudgetBytes + 2 * plan.workerKeepBytes
  }, 60_000)
  afterAll(() => api.stop())

  test('bodies held open part-way cost the server about their size, not twice it', async () => {
    const server = api.process!.pid
    const before = residentBytes(server)!
    const held = Array.from({ length: 6 }, () => holdUpload(api, HELD_BYTES))
    try {
      let grown = 0
      await waitUntil(async () => {
        grown = residentBytes(server)! - before
        return grown > 6 * (HELD_BYTES - 2 * MIB)
      }, 'the bodies to arrive')
      await Bun.sleep(1000)
      grown = residentBytes(server)! - before
      // A race against the upload deadline's promise once kept every chunk alive as well.
      expect(grown / MIB).toBeLessThan((6 * HELD_BYTES * 1.25) / MIB)
    } finally {
      for (const socket of held) socket.destroy()
    }
  }, 60_000)

  test('held uploads filling the upload budget while two searches run stay within the bound', async () => {
    const photo = await noiseJpeg(3000, 2000)
    const peak = samplePeak(api.process!.pid)
    const searches = [0, 1].map(() =>
      api.fetch('/api/compress?format=webp&quality=auto-high', rawBody(photo)),
    )
    await Bun.sleep(300)
    const held = Array.from({ length: 7 }, () => holdUpload(api, HELD_BYTES))
    try {
      const statuses = await Promise.all(searches.map(async (answer) => (await answer).status))
      await Bun.sleep(1000)
      const peakBytes = peak.stop()
      expect(statuses.every((status) => status === 200 || status === 422)).toBe(true)
      expect(peakBytes / MIB).toBeLessThanOrEqual(boundBytes / MIB)
    } finally {
      for (const socket of held) socket.destroy()
    }
  }, 120_000)

  test('a 20-variant request on a 20 MP photo beside a search stays within the bound, answered image by image', async () => {
    const photo = await noiseJpeg(5000, 4000)
    const variants = [3000, 2000, 1000, 500, 250].flatMap((width) =>
      ['avif', 'webp', 'jpeg', 'png'].map((format) => ({ width, format })),
    )
    const peak = samplePeak(api.process!.pid)
    const [list, search] = await Promise.all([
      api.fetch(`/api/compress?variants=${encodeURIComponent(JSON.stringify(variants))}`, {
        ...rawBody(photo),
        headers: { accept: 'application/json' },
      }),
      api.fetch('/api/compress?format=webp&quality=auto-high', rawBody(await noiseJpeg(3000, 2000))),
    ])
    const peakBytes = peak.stop()
    expect([200, 422]).toContain(search.status)
    expect(list.status).toBe(200)
    const body = (await list.json()) as { variants: { width?: number; problem?: { code: string } }[] }
    expect(body.variants).toHaveLength(20)
    // Each variant is an image or a clear problem (the list's time ran out, a limit refused it).
    for (const entry of body.variants)
      expect(entry.width ?? entry.problem?.code).toBeOneOf([
        ...variants.map((v) => v.width),
        'PROCESSING_TIMEOUT',
        'IMAGE_TOO_LARGE',
      ])
    expect(peakBytes / MIB).toBeLessThanOrEqual(boundBytes / MIB)
    await waitUntil(async () => childPids(api.process!.pid).length === 2, 'the pool to be whole again')
  }, 180_000)

  for (const [name, filter] of [
    ['blur', '<feGaussianBlur stdDeviation="40"/>'],
    [
      'noise then blur',
      '<feTurbulence baseFrequency="0.05" numOctaves="2"/><feGaussianBlur stdDeviation="10"/>',
    ],
  ] as const) {
    test(`two SVG renders (${name}) at once, each stopped at its share if it outgrows it, stay within the bound`, async () => {
      const svg = blurSvg(3500, filter)
      const peak = samplePeak(api.process!.pid)
      const answers = await Promise.all(
        [0, 1].map(() => api.fetch('/api/compress?format=jpeg', rawBody(svg, 'image/svg+xml'))),
      )
      const peakBytes = peak.stop()
      for (const answer of answers) expect([200, 422]).toContain(answer.status)
      expect(peakBytes / MIB).toBeLessThanOrEqual(boundBytes / MIB)
      await waitUntil(async () => childPids(api.process!.pid).length === 2, 'the pool to be whole again')
    }, 120_000)
  }
})

describe('what workers keep, with IMGAPI_MEMORY_LIMIT_BYTES at 1 GiB (where they keep nothing)', () => {
  let api: Api
  beforeAll(async () => {
    api = await spawnApi({ memoryLimitBytes: LIMIT_BYTES, workers: 1 })
  })
  afterAll(() => api.stop())

  test('after a 16 MP HEIC the idle worker is back near its idle size: it retired, whatever its decoder reported', async () => {
    const tiny = await fixture('png-tiny-1x1-prophoto-icc.png')
    expect((await api.fetch('/api/compress?format=png', rawBody(tiny))).status).toBe(200)
    const idle = residentBytes(childPids(api.process!.pid)[0]!)!
    const heic = await fixture('heic-flat-4000x4000.heic')
    expect((await api.fetch('/api/compress?format=jpeg&width=400', rawBody(heic))).status).toBe(200)
    // libheif's memory once stayed with the worker: 381-504 MiB idle after such a file.
    let after = 0
    await waitUntil(async () => {
      const workers = childPids(api.process!.pid)
      after = workers.length === 1 ? (residentBytes(workers[0]!) ?? 0) : 0
      return after > 0 && after - idle < 48 * MIB
    }, 'the worker to be back near its idle size')
    expect((after - idle) / MIB).toBeLessThan(48)
  }, 60_000)
})
