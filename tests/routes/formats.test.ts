import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decoderModuleVersions } from '../../src/image/decoders/index.ts'

interface Format {
  id: string
  mime: string
  extensions: string[]
  input: boolean
  output: boolean
  animated: boolean
  alpha: boolean
  lossless: boolean
  tunables: Record<string, { min?: number; max?: number; default: unknown; values?: string[] }>
  decoder?: { name: string; version: string }
}

describe('GET /api/formats', () => {
  let api: Api
  let formats: Format[]
  beforeAll(async () => {
    api = await startApi()
    formats = (await (await api.fetch('/api/formats')).json()).formats
  })
  afterAll(() => api.stop())
  const byId = (id: string) => formats.find((f) => f.id === id)!

  test('reads and writes jpeg, png, webp, avif, gif and tiff', () => {
    for (const id of ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']) {
      expect(byId(id)).toMatchObject({ input: true, output: true })
    }
  })

  test('lists read-only and unreadable formats honestly', () => {
    expect(byId('svg')).toMatchObject({ input: true, output: false })
    // Read by the WebAssembly decoders (the bundled libvips has neither), which the list names.
    expect(byId('jxl')).toMatchObject({ input: true, output: false, decoder: { name: 'jxl-oxide' } })
    expect(byId('heic')).toMatchObject({ input: true, output: false, decoder: { name: 'libheif' } })
    expect(byId('heic').decoder?.version).toMatch(/^\d+\.\d+\.\d+$/)
    // Named from the packages, without starting a decoder in the server: the modules agree.
    const modules = decoderModuleVersions()
    expect([byId('heic').decoder?.version, byId('jxl').decoder?.version]).toEqual([
      modules.libheif,
      modules.jxlOxide,
    ])
    expect(byId('jpeg').decoder).toBeUndefined()
  })

  test('declares mime, extensions, animation, alpha and lossless per format', () => {
    expect(byId('webp')).toMatchObject({
      mime: 'image/webp',
      extensions: ['webp'],
      animated: true,
      alpha: true,
      lossless: true,
    })
    expect(byId('jpeg')).toMatchObject({ mime: 'image/jpeg', animated: false, alpha: false, lossless: false })
    expect(byId('gif').animated).toBe(true)
  })

  test('gives each writable format its tunables with native ranges and defaults', () => {
    expect(byId('webp').tunables.effort).toEqual({ min: 0, max: 6, default: 4 })
    // Every AVIF effort: a job too slow is stopped by killing its worker process. Its default
    // depends on the output's size (the same table on every server).
    expect(byId('avif').tunables.effort as unknown).toEqual({
      min: 0,
      max: 9,
      default: 3,
      defaultByPixels: [
        { maxPixels: 8_000_000, effort: 3 },
        { maxPixels: 100_000_000, effort: 0 },
      ],
    })
    expect(byId('png').tunables.effort).toEqual({ min: 1, max: 10, default: 7 })
    expect(byId('jpeg').tunables.quality).toEqual({ min: 1, max: 100, default: 80 })
    expect(byId('jpeg').tunables.chromaSubsampling?.values).toEqual(['4:2:0', '4:4:4'])
    expect(byId('svg').tunables).toEqual({})
  })

  test('publishes progressive JPEG and non-interlaced PNG and GIF as defaults, and WebP without smart subsampling', () => {
    expect(['jpeg', 'png', 'gif'].map((id) => byId(id).tunables.progressive)).toEqual([
      { default: true },
      { default: false },
      { default: false },
    ])
    expect(byId('webp').tunables.smartSubsample).toEqual({ default: false })
    expect(byId('jpeg').tunables.effort).toEqual({ min: 0, max: 1, default: 0 })
  })

  test('is cacheable: ETag and Cache-Control, and 304 when the ETag matches', async () => {
    const response = await api.fetch('/api/formats')
    const etag = response.headers.get('etag')
    expect(etag).toMatch(/^"[0-9a-f]+"$/)
    expect(response.headers.get('cache-control')).toContain('max-age=')
    const again = await api.fetch('/api/formats', { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })
})

/** The limits a server started with these settings publishes. */
async function limitsOf(overrides: Parameters<typeof startApi>[0]): Promise<Record<string, number>> {
  const api = await startApi(overrides)
  try {
    return (await (await api.fetch('/api/formats')).json()).limits
  } finally {
    await api.stop()
  }
}

describe('GET /api/formats limits', () => {
  test('publishes the limits a client paces itself by and checks a file against, as this server enforces them', async () => {
    const checked = {
      maxUploadBytes: 5_000_000,
      maxInputPixels: 40_000_000,
      maxOutputPixels: 30_000_000,
      maxOutputDimension: 4000,
      maxVariants: 7,
      maxFrames: 50,
      maxHeifPixels: 20_000_000,
      maxJxlPixels: 10_000_000,
    }
    const limits = await limitsOf({ workers: 3, queueLength: 9, ...checked })
    // maxClientJobs not set: the cap in force is half of workers plus queue, not the setting's 0.
    expect(limits).toEqual({ workers: 3, maxClientJobs: 6, ...checked })
  })

  test('an explicit per-client cap is published as it is', async () => {
    expect((await limitsOf({ maxClientJobs: 2 })).maxClientJobs).toBe(2)
  })
})
