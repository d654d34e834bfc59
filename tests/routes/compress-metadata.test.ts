import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { apiForSuite, compressOk } from '../helpers/compress.ts'
import { containsAscii, decode, exifTopTags, noisyImage } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'

const XMP = `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/" xmlns:cc="http://creativecommons.org/ns#" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmpRights:Marked="True"><dc:rights><rdf:Alt><rdf:li xml:lang="x-default">CC BY 4.0 Jane Doe</rdf:li></rdf:Alt></dc:rights><dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator><cc:license rdf:resource="https://creativecommons.org/licenses/by/4.0/"/><exif:GPSLatitude>48,51.49N</exif:GPSLatitude><photoshop:City>SecretTown</photoshop:City></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`

/**
 * A photo as a phone and an editor leave it: camera and GPS, copyright and author, a ProPhoto
 * profile; noisy, so that a re-encode at the default quality is larger than a quality-30 one.
 */
async function signedPhoto(quality = 95): Promise<Uint8Array> {
  const profile = await fixture('png-tiny-1x1-prophoto-icc.png')
  return sharp(profile)
    .resize(320, 240, { fit: 'fill' })
    .composite([{ input: Buffer.from(await noisyImage(320, 240, 'png')), blend: 'soft-light' }])
    .withExif({
      IFD0: { Copyright: 'Jane Doe 2024', Artist: 'Jane Doe', Make: 'LeakyPhone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100' },
    })
    .withXmp(XMP)
    .keepIccProfile()
    .jpeg({ quality })
    .toBuffer()
}

const GPS_DIRECTORY = 0x8825

describe('POST /api/compress: metadata=copyright and metadata=icc', () => {
  const api = apiForSuite()
  const compress = async (input: Uint8Array, query: string) => (await compressOk(api(), input, query)).bytes

  test('the input carries everything the levels choose from', async () => {
    const input = await decode(await signedPhoto())
    expect([input.hasExif, input.hasXmp, input.hasIcc]).toEqual([true, true, true])
    expect(exifTopTags(input.metadata.exif!)).toContain(GPS_DIRECTORY)
  })

  for (const format of ['jpeg', 'webp', 'png']) {
    test(`copyright keeps the copyright and author, the profile, and drops GPS and the camera (${format})`, async () => {
      const input = await signedPhoto()
      const bytes = await compress(input, `metadata=copyright&format=${format}`)
      const output = await decode(bytes)
      const exif = output.metadata.exif!.toString('latin1')
      expect(exif).toContain('Jane Doe 2024')
      expect(exif).not.toContain('LeakyPhone')
      // The metadata, not the whole file: noisy pixels may spell "GPS" by chance.
      expect(exifTopTags(output.metadata.exif!)).not.toContain(GPS_DIRECTORY)
      const xmp = output.metadata.xmp!.toString()
      expect(xmp).not.toContain('GPS')
      expect(xmp).toContain('CC BY 4.0 Jane Doe')
      expect(xmp).toContain('<dc:creator>')
      expect(xmp).toContain('https://creativecommons.org/licenses/by/4.0/')
      expect(xmp).toContain('xmpRights:Marked')
      expect(xmp).not.toContain('48,51.49N')
      expect(xmp).not.toContain('SecretTown')
      const profile = (await sharp(input).metadata()).icc!
      expect(Buffer.compare(output.metadata.icc!, profile)).toBe(0)
    })
  }

  test('icc keeps the profile unconverted and nothing else', async () => {
    const input = await signedPhoto()
    const bytes = await compress(input, 'metadata=icc&format=png&lossless=true')
    const output = await decode(bytes)
    expect([output.hasExif, output.hasXmp]).toEqual([false, false])
    expect(Buffer.compare(output.metadata.icc!, (await sharp(input).metadata()).icc!)).toBe(0)
    // Unconverted: the samples are the input's own, not turned into sRGB as strip does.
    const own = await sharp(input).keepIccProfile().raw().toBuffer()
    const converted = await sharp(input).raw().toBuffer()
    const out = await sharp(bytes).keepIccProfile().raw().toBuffer()
    const distance = (a: Buffer, b: Buffer) =>
      a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length
    expect(distance(out, own)).toBeLessThan(distance(out, converted))
  })

  test('the levels survive an operation that renders between passes', async () => {
    // The trim after the crop needs the pixels rendered in between.
    const bytes = await compress(
      await signedPhoto(),
      'metadata=copyright&crop=0,0,300,200&trim=10&format=jpeg',
    )
    const output = await decode(bytes)
    expect(output.metadata.exif!.toString('latin1')).toContain('Jane Doe 2024')
    expect(output.hasIcc).toBe(true)
    expect(containsAscii(bytes, 'LeakyPhone')).toBe(false)
  })

  test('GIF carries no metadata, so the level is listed in X-Ignored-Options', async () => {
    const { response } = await compressOk(api(), await signedPhoto(), 'metadata=copyright&format=gif')
    expect(response.headers.get('x-ignored-options')).toBe('metadata')
  })

  test('never larger: the input is not returned when it carries fields copyright would drop', async () => {
    const small = await sharp(await signedPhoto())
      .keepMetadata()
      .jpeg({ quality: 30 })
      .toBuffer()
    const { response, bytes } = await compressOk(api(), small, 'metadata=copyright')
    expect(response.headers.get('x-result')).toBe('compressed')
    expect(containsAscii(bytes, 'LeakyPhone')).toBe(false)
    const icc = await compressOk(api(), small, 'metadata=icc')
    expect(icc.response.headers.get('x-result')).not.toBe('compressed')
    expect(containsAscii(icc.bytes, 'LeakyPhone')).toBe(false)
  })
})
