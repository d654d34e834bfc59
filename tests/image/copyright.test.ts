import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { exifCopyright, xmpCopyright } from '../../src/image/steps/copyright.ts'

describe('the fields metadata=copyright keeps', () => {
  test('reads Copyright and Artist from IFD0 and nothing else; a cut-off block gives nothing', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .withExif({ IFD0: { Copyright: 'Jane Doe', Artist: 'Jane', Make: 'LeakyPhone' } })
      .jpeg()
      .toBuffer()
    expect(exifCopyright((await sharp(jpeg).metadata()).exif!)).toEqual({
      Copyright: 'Jane Doe',
      Artist: 'Jane',
    })
    expect(exifCopyright(new Uint8Array([0x4d, 0x4d, 0, 42]))).toEqual({})
  })

  test('finds the XMP fields under any prefix, as elements or attributes, and renames them to the usual ones', () => {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:r="http://ns.adobe.com/xap/1.0/rights/" xmlns:e="http://ns.adobe.com/exif/1.0/" r:Marked="True" r:WebStatement="https://example.com/terms"><d:rights><rdf:Alt><rdf:li xml:lang="x-default">All rights reserved</rdf:li></rdf:Alt></d:rights><d:title>Not kept</d:title><e:GPSLatitude>48N</e:GPSLatitude></rdf:Description></rdf:RDF></x:xmpmeta>`
    expect(xmpCopyright(xmp).sort()).toEqual([
      '<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">All rights reserved</rdf:li></rdf:Alt></dc:rights>',
      '<xmpRights:Marked>True</xmpRights:Marked>',
      '<xmpRights:WebStatement>https://example.com/terms</xmpRights:WebStatement>',
    ])
  })
})
