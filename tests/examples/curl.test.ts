import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { FIXTURES } from '../helpers/paths.ts'
import { CURL, EXAMPLES, runExample, scratchDir, testWith } from './example-runner.ts'

const withCurl = testWith(CURL)

describe('static/examples/curl.sh', () => {
  let api: Api
  let dir: string
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    dir = scratchDir()
  })
  afterAll(async () => {
    await api.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  withCurl(
    'checks health and formats, then writes a WebP (multipart), an AVIF (raw body), a JPEG of at most 50 kB and a ZIP of three sizes from one upload',
    async () => {
      const image = join(dir, 'holiday.jpg')
      copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), image)
      const run = await runExample(['bash', join(EXAMPLES, 'curl.sh'), image], dir, api.url)
      expect(run.stderr).toBe('')
      expect(run.exitCode).toBe(0)
      expect(run.stdout).toContain('"status":"ok"')
      expect(run.stdout).toContain('"formats":[')
      // The X-* headers of both answers; the photo is 600x450 once its EXIF orientation is applied.
      expect(run.stdout).toMatch(/^x-output-format: webp\r?$/im)
      expect(run.stdout).toMatch(/^x-output-format: avif\r?$/im)
      expect(run.stdout).toMatch(/^x-original-size: 137628\r?$/im)
      expect(run.stdout).not.toMatch(/^x-content-type-options/im)
      const webp = await decode(readFileSync(join(dir, 'holiday.webp')))
      expect([webp.format, webp.width, webp.height]).toEqual(['webp', 600, 450])
      const avif = await decode(readFileSync(join(dir, 'holiday.avif')))
      expect([avif.format, avif.metadata.compression, avif.width, avif.height]).toEqual([
        'heif',
        'av1',
        600,
        450,
      ])
      const small = readFileSync(join(dir, 'holiday-50k.jpg'))
      expect(small.length).toBeLessThanOrEqual(50_000)
      expect((await decode(small)).format).toBe('jpeg')
      // The floor holds: scaled down if need be, never below quality 50.
      const qualities = [...run.stdout.matchAll(/^x-quality: (\d+)\r?$/gim)].map((m) => Number(m[1]))
      expect(qualities.at(-1)).toBeGreaterThanOrEqual(50)
      expect(run.stdout).toMatch(/^x-similarity: ssim=0\.\d{4}\r?$/im)
      // The responsive set: three images and their manifest in one ZIP, from one upload.
      expect(run.stdout).toMatch(/^x-variants: 3\r?$/im)
      expect(run.stdout).toMatch(/^x-variants-failed: 0\r?$/im)
      const zip = readFileSync(join(dir, 'holiday-sizes.zip'))
      expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04])
      expect(zipEntryNames(zip)).toEqual([
        'holiday-240.webp',
        'holiday-480.webp',
        'holiday-480.avif',
        'manifest.json',
      ])
    },
  )

  test('prints every result header its comment names, X-Resized-To-Fit among them', async () => {
    const script = await Bun.file(join(EXAMPLES, 'curl.sh')).text()
    const pattern = new RegExp(/^RESULT_HEADERS='(.+)'$/m.exec(script)![1]!, 'i')
    for (const header of [
      'X-Quality',
      'X-Similarity',
      'X-Resized-To-Fit',
      'X-Compression-Ratio',
      'X-Output-Format',
    ])
      expect([header, pattern.test(header)]).toEqual([header, true])
  })

  withCurl('stops with the problem+json on stderr when the file is not an image', async () => {
    const notes = join(dir, 'notes.jpg')
    await Bun.write(notes, 'meeting notes, not a photo\n')
    const run = await runExample(['bash', join(EXAMPLES, 'curl.sh'), notes], dir, api.url)
    expect(run.exitCode).not.toBe(0)
    expect(JSON.parse(run.stderr.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    })
    // The problem was printed, not left behind in place of an image.
    expect(await Bun.file(join(dir, 'notes.webp')).exists()).toBe(false)
  })
})

/** The names in a ZIP's central directory (each record: signature, 42 bytes, then the name). */
function zipEntryNames(zip: Buffer): string[] {
  const names: string[] = []
  for (
    let at = zip.indexOf('PK\x01\x02', 0, 'latin1');
    at >= 0;
    at = zip.indexOf('PK\x01\x02', at + 46, 'latin1')
  ) {
    const length = zip.readUInt16LE(at + 28)
    names.push(zip.toString('utf8', at + 46, at + 46 + length))
  }
  return names
}
