// Compresses one image to WebP with Node 20+ (or Bun) and no dependencies, sending it as the raw body.
// Usage: IMGAPI_URL=http://localhost:3000 node node.mjs photo.jpg photo.webp
import { readFile, writeFile } from 'node:fs/promises'

const [input, output] = process.argv.slice(2)
if (!input || !output) {
  console.error('usage: node node.mjs <input image> <output.webp>')
  process.exit(2)
}
const baseUrl = process.env.IMGAPI_URL ?? 'http://localhost:3000'

// Any Content-Type other than multipart means "the body is the image"; options go in the query.
const response = await fetch(`${baseUrl}/api/compress?format=webp&quality=75`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/octet-stream' },
  body: await readFile(input),
})

if (!response.ok) {
  // Every error is application/problem+json: a stable code and a detail saying what went wrong.
  const problem = await response.json().catch(() => ({}))
  console.error(`${problem.code ?? response.status}: ${problem.detail ?? response.statusText}`)
  process.exit(1)
}

await writeFile(output, Buffer.from(await response.arrayBuffer()))
const header = (name) => response.headers.get(name)
console.log(
  `${input} -> ${output}: ${header('X-Original-Size')} -> ${header('X-Compressed-Size')} bytes ` +
    `(ratio ${header('X-Compression-Ratio')}, ${header('X-Image-Width')}x${header('X-Image-Height')})`,
)
