import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { HAS_CORPUS, announceCorpusSkip } from '../helpers/paths.ts'
import {
  CONCURRENT_SUITE,
  ANIMATED_OUTPUTS,
  READABLE_ROWS,
  compress,
  inputFacts,
  type InputFacts,
} from './support.ts'

announceCorpusSkip('never larger than the input')

/**
 * Formats the service can strip metadata from at byte level, per its documented design; for
 * the others an input with private metadata must be re-encoded, whatever the size.
 */
const BYTE_LEVEL_STRIPPER = ['jpeg', 'png', 'webp']

/** Why returning (an optimised copy of) the input would not honour the request, if it would not. */
function fallbackForbidden(input: InputFacts, output: string): string | undefined {
  if (output !== input.format.id) return `converted to ${output}`
  if (input.orientation !== 1) return `EXIF orientation ${input.orientation} must be applied to the pixels`
  if (input.frames > 1 && !ANIMATED_OUTPUTS.includes(output)) return `${input.frames} frames become one`
  if (input.hasPrivateMetadata && !BYTE_LEVEL_STRIPPER.includes(output))
    return `${output} metadata can only be removed by re-encoding`
  return undefined
}

describe.skipIf(!HAS_CORPUS)('never larger than the input (format=original, no resize)', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi(CONCURRENT_SUITE)
  })
  afterAll(async () => {
    await api.stop()
  })

  for (const row of READABLE_ROWS) {
    test.concurrent(
      `${row.file} comes back no larger than uploaded, unless returning its own pixels would not honour the request`,
      async () => {
        const input = await inputFacts(row.file)
        const result = await compress(api, input.bytes, row.file)
        expect(result.status).toBe(200)
        const output = result.header('x-output-format')!
        // Inputs this server cannot write fall back to png (alpha) or jpeg.
        const expectedOutput = input.format.output ? input.format.id : input.hasAlpha ? 'png' : 'jpeg'
        expect(output).toBe(expectedOutput)

        const kind = result.header('x-result')
        expect(['compressed', 'optimised', 'original']).toContain(kind!)
        expect(result.int('x-original-size')).toBe(input.bytes.length)
        expect(result.int('x-compressed-size')).toBe(result.bytes.length)

        const forbidden = fallbackForbidden(input, output)
        if (forbidden === undefined) {
          expect(result.int('x-compressed-size')).toBeLessThanOrEqual(result.int('x-original-size'))
        } else {
          expect({ kind, reason: forbidden }).toEqual({ kind: 'compressed', reason: forbidden })
        }

        // Whatever the path, the output is the upright image, whole, and free of private metadata.
        const decoded = await decode(result.bytes)
        expect({ width: decoded.width, height: decoded.height }).toEqual({
          width: input.width,
          height: input.height,
        })
        expect(decoded.pages).toBe(ANIMATED_OUTPUTS.includes(output) ? input.frames : 1)
        expect({ exif: decoded.hasExif, xmp: decoded.hasXmp }).toEqual({ exif: false, xmp: false })
        expect(decoded.orientation ?? 1).toBe(1)
        if (kind === 'original') expect(Buffer.from(result.bytes).equals(Buffer.from(input.bytes))).toBe(true)
        if (kind === 'optimised') expect(result.bytes.length).toBeLessThan(input.bytes.length)
        if (kind !== 'compressed') expect(result.header('x-quality')).toBeNull()
      },
    )
  }
})
