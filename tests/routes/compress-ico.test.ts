import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { readIco } from '../../src/image/steps/index.ts'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { fixture } from '../helpers/paths.ts'
import { pixelAt, rawOf } from '../helpers/pixels.ts'
import { problemOf, rawBody } from '../helpers/requests.ts'
import { requireProgram } from '../helpers/services.ts'

const identify = requireProgram('identify', 'imagemagick', 'ICO output read back by ImageMagick')

/** What ImageMagick, an independent reader, sees in the file: one "WxH" per image. */
function identifySizes(bytes: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-ico-'))
  try {
    const file = join(dir, 'icon.ico')
    writeFileSync(file, bytes)
    const run = Bun.spawnSync([identify!, '-format', '%wx%h\\n', file])
    expect(run.exitCode).toBe(0)
    return run.stdout.toString().trim().split('\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const photo = await fixture('photo-exif-orientation-6.jpg')

describe('POST /api/compress: format=ico', () => {
  const api = apiForSuite()

  test('is a multi-size ICO of PNG images, 16, 32 and 48 by default, as image/x-icon', async () => {
    const { response, bytes } = await compressOk(api(), photo, 'format=ico')
    expect(response.headers.get('content-type')).toBe('image/x-icon')
    expect(response.headers.get('content-disposition')).toContain('.ico"')
    expect([response.headers.get('x-image-width'), response.headers.get('x-image-height')]).toEqual([
      '48',
      '48',
    ])
    const images = readIco(bytes)!
    expect(images.map((image) => [image.width, image.height])).toEqual([
      [16, 16],
      [32, 32],
      [48, 48],
    ])
    for (const image of images) {
      const decoded = await sharp(image.png).metadata()
      expect([decoded.format, decoded.width, decoded.height]).toEqual(['png', image.width, image.height])
    }
  })

  test.skipIf(!identify)('ImageMagick reads the three sizes back', async () => {
    const { bytes } = await compressOk(api(), photo, 'format=ico')
    expect(identifySizes(bytes).sort()).toEqual(['16x16', '32x32', '48x48'])
  })

  test('icoSizes chooses the sizes; 256 is written as 0 in the directory', async () => {
    const { bytes } = await compressOk(api(), photo, 'format=ico&icoSizes=256,16,64,16')
    expect(readIco(bytes)!.map((image) => image.width)).toEqual([16, 64, 256])
    // The third entry of the directory: 6 bytes of header, 16 a entry.
    expect([bytes[6 + 2 * 16], bytes[6 + 2 * 16 + 1]]).toEqual([0, 0])
    if (identify) expect(identifySizes(bytes).sort()).toEqual(['16x16', '256x256', '64x64'])
  })

  test('keeps the aspect ratio on transparency, after the other operations', async () => {
    const { bytes } = await compressOk(api(), photo, 'format=ico&icoSizes=32&rotate=90')
    // Turned, the photo is 450x600: 24x32 in a 32x32 square, transparent at the sides.
    const icon = await rawOf(readIco(bytes)![0]!.png, { alpha: true })
    expect(pixelAt(icon, 1, 16)[3]).toBe(0)
    expect(pixelAt(icon, 16, 16)[3]).toBe(255)
  })

  test('quality, effort and maxBytes do not apply, and say so', async () => {
    const { response } = await compressOk(api(), photo, 'format=ico&quality=50&effort=3&maxBytes=1000')
    expect(response.headers.get('x-ignored-options')?.split(',').sort()).toEqual([
      'effort',
      'maxBytes',
      'quality',
    ])
  })

  test('icoSizes without format=ico is listed as ignored; a size over 256 is refused', async () => {
    const { response } = await compressOk(api(), photo, 'format=png&icoSizes=16')
    expect(response.headers.get('x-ignored-options')).toBe('icoSizes')
    const problem = await problemOf(
      await api().fetch('/api/compress?format=ico&icoSizes=16,300', rawBody(photo)),
    )
    expect([problem.httpStatus, problem.errors?.[0]?.name]).toEqual([400, 'icoSizes'])
  })

  test('format=auto never picks it: formats may not name it, and Accept: image/x-icon does not bring it', async () => {
    const listed = await problemOf(
      await api().fetch('/api/compress?format=auto&formats=ico,png', rawBody(photo)),
    )
    expect([listed.httpStatus, listed.errors?.[0]?.name]).toEqual([400, 'formats'])
    const response = await api().fetch('/api/compress?format=auto', {
      ...rawBody(photo),
      headers: { 'content-type': 'image/jpeg', accept: 'image/x-icon,image/webp' },
    })
    expect(response.headers.get('x-output-format')).not.toBe('ico')
  })

  test('is published in GET /api/formats as an output only', async () => {
    const { formats } = (await (await api().fetch('/api/formats')).json()) as {
      formats: { id: string; input: boolean; output: boolean; mime: string }[]
    }
    const ico = formats.find((f) => f.id === 'ico')!
    expect([ico.input, ico.output, ico.mime]).toEqual([false, true, 'image/x-icon'])
  })

  test('an ICO upload is refused: it is written, not read', async () => {
    const { bytes } = await compressOk(api(), photo, 'format=ico')
    const problem = await problemOf(await api().fetch('/api/compress', rawBody(bytes)))
    expect([problem.httpStatus, problem.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
  })
})
