import sharp from 'sharp'
const C = '../shared/corpus/public/'
const f = (n: string) => Bun.file(C + n).bytes()
// 1. CMYK + prophoto default conversion
for (const n of ['photo-cmyk-icc.jpg', 'png-tiny-1x1-prophoto-icc.png']) {
  const { data, info } = await sharp(await f(n)).toBuffer({ resolveWithObject: true })
  const m = await sharp(data).metadata()
  const raw1 = await sharp(await f(n))
    .raw()
    .toBuffer()
  const raw0 = await sharp(await f(n), {})
    .raw({})
    .toBuffer()
  console.log(n, info.format, m.space, 'icc', !!m.icc, 'exif', !!m.exif, 'raw', [...raw1.subarray(0, 4)])
  const k = await sharp(await f(n))
    .keepMetadata()
    .toBuffer()
  const km = await sharp(k).metadata()
  console.log(
    '  keep: space',
    km.space,
    'icc',
    !!km.icc,
    'exif',
    !!km.exif,
    'xmp',
    !!km.xmp,
    'iptc',
    !!km.iptc,
  )
}
// 2. orientation keep
for (const n of ['photo-exif-orientation-6.jpg']) {
  const k = await sharp(await f(n))
    .autoOrient()
    .keepMetadata()
    .jpeg()
    .toBuffer()
  const km = await sharp(k).metadata()
  console.log('orient keep', km.width, km.height, km.orientation, !!km.exif)
  const s = await sharp(await f(n))
    .autoOrient()
    .jpeg()
    .toBuffer()
  const sm = await sharp(s).metadata()
  console.log('orient strip', sm.width, sm.height, sm.orientation, !!sm.exif, !!sm.icc)
}
// 3. failOn
for (const fo of ['none', 'truncated', 'error', 'warning'] as const)
  for (const n of ['bad-truncated.jpg', 'bad-truncated.png']) {
    try {
      await sharp(await f(n), { failOn: fo })
        .jpeg()
        .toBuffer()
      console.log(fo, n, 'OK')
    } catch (e: any) {
      console.log(fo, n, 'ERR', e.message)
    }
  }
// 4. tiff jpeg with alpha
try {
  const t = await sharp(await f('png-screenshot-rgba-marble.png'))
    .tiff({ compression: 'jpeg', quality: 80 })
    .toBuffer()
  const m = await sharp(t).metadata()
  console.log('tiff jpeg alpha', t.length, m.channels, m.hasAlpha)
} catch (e: any) {
  console.log('tiff alpha ERR', e.message)
}
// 5. GPS writing
const g = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#f00' } })
  .withExif({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } } as any)
  .jpeg()
  .toBuffer()
const gm = await sharp(g).metadata()
console.log('gps exif', !!gm.exif, gm.exif?.includes(Buffer.from('TestCam')), gm.exif?.length)
// 6. sharp default output for 16-bit png
const p16 = await sharp(await f('png-photo-16bit-rgb.png'))
  .png()
  .toBuffer()
console.log('16bit png out', (await sharp(p16).metadata()).depth)
// 7. animated gif -> webp keeps loop/delay
const a = await sharp(await f('gif-animated-10frames.gif'), { animated: true })
  .resize({ width: 100 })
  .webp()
  .toBuffer()
const am = await sharp(a, { animated: true }).metadata()
console.log('anim', am.pages, am.width, am.pageHeight, am.loop, am.delay)
console.log('avif alias', (sharp.format as any).avif)
