/*
 * Writes the SSIM test planes to tests/fixtures/ssim/: for three fixtures, the luma plane of a
 * small lossless original and of re-encodes of it by sharp, plus pairs.json naming each pair
 * (each original is also paired with itself).
 * ssim-reference.py (beside it) then computes scikit-image's SSIM of every pair from these very
 * files, so the committed planes, not sharp's encoders of the day, define the test.
 *
 * The originals are brought down to the plane size before encoding, so that compression
 * artefacts are at the scale SSIM sees them (encoding at full size and then shrinking hides
 * most of them: JPEG q20 would score 0.98). Run with `bun bench/ssim-reference/ssim-planes.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { engineVersions, sharp, type Sharp } from '../../src/image/sharp.ts'
import { toLumaPlane } from '../../src/image/search/index.ts'
import { FIXTURES, ROOT } from '../../tests/helpers/paths.ts'

const OUT = join(ROOT, 'tests/fixtures/ssim')

interface Source {
  readonly name: string
  readonly file: string
  readonly width: number
  readonly height: number
  readonly candidates: Readonly<Record<string, (original: Sharp) => Sharp>>
}

const SOURCES: readonly Source[] = [
  {
    name: 'photo',
    file: 'photo-exif-orientation-6.jpg',
    width: 192,
    height: 144,
    candidates: {
      'jpeg-q20': (image) => image.jpeg({ quality: 20 }),
      'jpeg-q50': (image) => image.jpeg({ quality: 50 }),
      'jpeg-q90': (image) => image.jpeg({ quality: 90 }),
      'webp-q30': (image) => image.webp({ quality: 30 }),
      'webp-q80': (image) => image.webp({ quality: 80 }),
      'avif-q40': (image) => image.avif({ quality: 40 }),
      'blur-sigma2': (image) => image.blur(2).png(),
    },
  },
  {
    name: 'alpha',
    file: 'webp-lossy-alpha.webp',
    width: 128,
    height: 128,
    candidates: {
      'webp-q30': (image) => image.webp({ quality: 30 }),
      'jpeg-q50-on-white': (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 50 }),
    },
  },
  {
    name: 'ball',
    file: 'png-apng-animated-ball.png',
    width: 100,
    height: 100,
    candidates: { 'avif-q40': (image) => image.avif({ quality: 40 }) },
  },
]

const pairs: object[] = []
mkdirSync(OUT, { recursive: true })

for (const source of SOURCES) {
  const size = { width: source.width, height: source.height }
  // Upright, first frame, alpha kept: the image a viewer shows, at the plane size.
  const original = await sharp(join(FIXTURES, source.file))
    .autoOrient()
    .resize({ ...size, fit: 'fill' })
    .png()
    .toBuffer()
  const reference = `${source.name}.gray`
  writeFileSync(join(OUT, reference), (await toLumaPlane(original, size)).data)
  pairs.push({
    name: `${source.name} identical`,
    source: source.file,
    reference,
    candidate: reference,
    ...size,
  })
  for (const [variant, encode] of Object.entries(source.candidates)) {
    const candidate = `${source.name}-${variant}.gray`
    const bytes = await encode(sharp(original)).toBuffer()
    writeFileSync(join(OUT, candidate), (await toLumaPlane(bytes, size)).data)
    pairs.push({ name: `${source.name} ${variant}`, source: source.file, reference, candidate, ...size })
  }
}

writeFileSync(join(OUT, 'pairs.json'), JSON.stringify({ generator: engineVersions(), pairs }, null, 2) + '\n')
console.log(`${pairs.length} pairs written to ${OUT}`)
