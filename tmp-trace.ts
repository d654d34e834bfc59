import { readFileSync } from 'node:fs'
import { runImgapi, warmUpImgapi } from './bench/quality-imgapi.ts'
import { readManifest } from './bench/quality-corpus.ts'
import { FORMATS_BY_CLASS } from './bench/quality-run.ts'
const fmt = process.argv[2] ?? 'jpeg'
const only = process.argv[3]
const dir = '/work/shared/corpus/public'
const images = readManifest(dir).images.filter((i: any) => (FORMATS_BY_CLASS as any)[i.imageClass]?.includes(fmt))
await warmUpImgapi(readFileSync(`${dir}/${images[0].file}`), [fmt])
for (const img of images) {
  if (only && !img.file.includes(only)) continue
  const input = readFileSync(`${dir}/${img.file}`)
  const f = await runImgapi(input, { format: fmt, width: '1600' })
  ;(globalThis as any).__trace = []; (globalThis as any).__t0 = performance.now()
  const a = await runImgapi(input, { format: fmt, width: '1600', quality: 'auto' })
  console.log(`${img.file}: fixed ${f.wallMs.toFixed(0)} auto ${a.wallMs.toFixed(0)} ratio ${(a.wallMs / f.wallMs).toFixed(2)} q${a.quality} ${a.similarity?.toFixed(4)}`)
  for (const l of (globalThis as any).__trace) console.log('   ' + l)
  ;(globalThis as any).__trace = undefined
}
