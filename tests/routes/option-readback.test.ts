import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { startApi, type Api } from '../helpers/api.ts'
import { IGNORED_CASES, publishedTunables } from '../helpers/ignored-cases.ts'
import { fixture } from '../helpers/paths.ts'
import { FORMAT_CASES } from '../helpers/readback-format-cases.ts'
import { runCase, type ReadbackCase } from '../helpers/readback-runner.ts'
import { COMMON_CASES } from '../helpers/readback-common-cases.ts'
import { OUTPUTS, loadSample } from '../helpers/readback-samples.ts'

/*
 * The option x format read-back matrix on two checked-in fixtures, so that it runs everywhere:
 * an opaque photo with EXIF orientation and a lossy WebP with transparency.
 * tests/corpus/option-readback.test.ts runs the same cases on more kinds of input.
 */
const FIXTURES = ['photo-exif-orientation-6.jpg', 'webp-lossy-alpha.webp']
const SAMPLES = await Promise.all(FIXTURES.map(async (name) => loadSample(name, await fixture(name))))
const CASES: readonly ReadbackCase[] = [...FORMAT_CASES, ...COMMON_CASES, ...IGNORED_CASES]

/**
 * libvips paints a background colour in the image's own colour space, so greyscale inputs need
 * their own run of the background cases. No fixture is greyscale with transparency and wider
 * than tall, so this one is made from the transparent WebP: its top 300x200, in grey.
 */
const GREY_SAMPLE = await loadSample(
  'webp-lossy-alpha.webp, top 300x200 in grey',
  new Uint8Array(
    await sharp(await fixture('webp-lossy-alpha.webp'))
      .extract({ left: 0, top: 0, width: 300, height: 200 })
      .toColourspace('b-w')
      .png()
      .toBuffer(),
  ),
)
const setsBackground = (c: ReadbackCase) =>
  typeof c.requests !== 'function' && c.requests.some((fields) => fields.background !== undefined)

describe('option read-back on fixtures', () => {
  let api: Api
  beforeAll(async () => {
    // Cases send their requests at once; the queue must hold every test's requests.
    api = await startApi({ jobTimeoutMs: 120_000, queueLength: 1000 })
  })
  afterAll(async () => {
    await api.stop()
  })

  test('every case is observable on at least one fixture, so no behaviour goes untested', () => {
    const unobserved = CASES.filter((c) => !SAMPLES.some((s) => !c.when || c.when(s))).map((c) => c.behaviour)
    expect(unobserved).toEqual([])
  })

  test('GET /api/formats publishes as tunables exactly the options found to apply', async () => {
    const { formats } = (await (await api.fetch('/api/formats')).json()) as {
      formats: { id: string; tunables: Record<string, unknown> }[]
    }
    for (const format of OUTPUTS) {
      const tunables = formats.find((f) => f.id === format)!.tunables
      expect(Object.keys(tunables).sort(), format).toEqual(publishedTunables(format).sort())
    }
  })

  for (const c of CASES) {
    const samples = setsBackground(c) ? [...SAMPLES, GREY_SAMPLE] : SAMPLES
    for (const sample of samples.filter((s) => !c.when || c.when(s))) {
      test.concurrent(`${c.behaviour} (${sample.name})`, () => runCase(api, c, sample))
    }
  }
})
