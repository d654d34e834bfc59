import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { configWith } from '../../src/config.ts'
import { wallClock } from '../../src/image/job-clock.ts'
import { planCandidates } from '../../src/image/plan-candidates.ts'
import { probeImage } from '../../src/image/probe.ts'
import { produceParts, shareGroups, type PartOutcome } from '../../src/image/produce-parts.ts'
import type { JobPlan } from '../../src/image/plan.ts'
import { parseCompressOptions } from '../../src/options/parse.ts'
import { CORPUS, FIXTURES, HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'

const config = configWith({})
const pipeline = { maxInputPixels: config.maxInputPixels, timeoutSeconds: 60 }
const options = () => ({ ...pipeline, clock: wallClock(), deadline: Infinity })

/** The operations a shared run has to reproduce: none, a resize, a cover crop, a turn, pad and corners, trim. */
const OPERATIONS: Record<string, string>[] = [
  {},
  { width: '100' },
  { width: '120', height: '120', fit: 'cover' },
  { width: '90', rotate: '30', background: '#336699' },
  { width: '90', pad: '4,4,4,4', radius: '12', greyscale: 'true' },
  { trim: '10', width: '80' },
]
const FORMATS = ['jpeg', 'webp', 'avif', 'tiff']
const FORMATS_AT_FULL_SIZE = FORMATS.filter((format) => format !== 'avif')

async function plansFor(
  input: Uint8Array,
  operation: Record<string, string>,
  formats: readonly string[],
): Promise<JobPlan[]> {
  const probe = await probeImage(input, config.maxUploadBytes)
  return formats.map((format) => {
    const parsed = parseCompressOptions(new Map(Object.entries({ ...operation, format })))
    return planCandidates(parsed, probe, config, {})[0]!.plan
  })
}

const bytesOf = (outcome: PartOutcome) =>
  'produced' in outcome ? outcome.produced.encoded.data : outcome.error.code

/** Every part's bytes from one shared job, against each part run alone (the one-pass pipeline). */
async function compareShared(input: Uint8Array, operation: Record<string, string>, formats = FORMATS) {
  const probe = await probeImage(input, config.maxUploadBytes)
  const plans = await plansFor(input, operation, formats)
  const parts = plans.map((plan) => [plan])
  const shared = await produceParts(input, probe, parts, options())
  const differing: string[] = []
  for (const [index, part] of parts.entries()) {
    const [single] = await produceParts(input, probe, [part], options())
    const a = bytesOf(shared[index]!)
    const b = bytesOf(single!)
    const same =
      typeof a === 'string' || typeof b === 'string' ? a === b : Buffer.from(a).equals(Buffer.from(b))
    if (!same) differing.push(`${formats[index]} ${JSON.stringify(operation)}`)
  }
  return { differing, groups: shareGroups(parts) }
}

const stills = (dir: string) =>
  readdirSync(dir).filter(
    (file) =>
      !file.startsWith('bad-') &&
      /\.(jpe?g|png|webp|tiff?|gif|avif|heic|svg)$/.test(file) &&
      // The 16-24 MP flat HEIC and JPEG XL check their decoders' limits, not the pixels' sharing.
      !file.includes('-flat-'),
  )

describe('variants that differ only in their encoding share one decode and resize, byte for byte', () => {
  test('a still photo to JPEG, WebP, AVIF and TIFF at one size is one shared run', async () => {
    const input = new Uint8Array(await Bun.file(`${FIXTURES}/photo-exif-orientation-6.jpg`).arrayBuffer())
    const { groups } = await compareShared(input, { width: '100' })
    expect(groups).toEqual([[0, 1, 2, 3]])
  })

  for (const file of stills(FIXTURES)) {
    test(`${file}: every shared encode equals the request alone`, async () => {
      const input = new Uint8Array(await Bun.file(`${FIXTURES}/${file}`).arrayBuffer())
      const differing: string[] = []
      for (const operation of OPERATIONS) differing.push(...(await compareShared(input, operation)).differing)
      expect(differing).toEqual([])
    }, 120_000)
  }
})

announceCorpusSkip('shared variants on the corpus')

describe.skipIf(!HAS_CORPUS)('shared variants on the corpus', () => {
  for (const file of HAS_CORPUS ? stills(CORPUS).filter((f) => !f.startsWith('jxl-')) : []) {
    test(`${file}: every shared encode equals the request alone`, async () => {
      const input = new Uint8Array(await Bun.file(`${CORPUS}/${file}`).arrayBuffer())
      const differing: string[] = []
      // At full size AVIF is left to the fixtures above: on photos of up to 24 MP it would be most
      // of this suite's time, and the shared path it takes is the other formats' path.
      differing.push(...(await compareShared(input, {}, FORMATS_AT_FULL_SIZE)).differing)
      differing.push(...(await compareShared(input, { width: '100' })).differing)
      expect(differing).toEqual([])
    }, 300_000)
  }
})
