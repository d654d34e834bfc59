// Compresses one image to WebP with Node 20+ (or Bun) and no dependencies, sending it as the raw body.
// Usage: IMGAPI_URL=http://localhost:3000 node node.mjs photo.jpg photo.webp
import { readFile, writeFile } from 'node:fs/promises'

const [input, output] = process.argv.slice(2)
if (!input || !output) {
  console.error('usage: node node.mjs <input image> <output.webp>')
  process.exit(2)
}
const baseUrl = process.env.IMGAPI_URL ?? 'http://localhost:3000'
// 429 (rate limited) and 503 (busy) may succeed later; any other error will not change by asking again.
const RETRYABLE = new Set([429, 503])
const ATTEMPTS = 4

const image = await readFile(input)
let response
for (let attempt = 1; ; attempt++) {
  // Any Content-Type other than multipart means "the body is the image"; options go in the query.
  response = await fetch(`${baseUrl}/api/compress?format=webp&quality=75`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: image,
  })
  if (!RETRYABLE.has(response.status) || attempt === ATTEMPTS) break
  // Retry-After says how many seconds to wait; without it, a random wait up to 0.5 s * 2^attempt.
  const retryAfter = Number(response.headers.get('Retry-After'))
  const waitMs = retryAfter > 0 ? retryAfter * 1000 : Math.random() * 500 * 2 ** attempt
  await response.body?.cancel()
  await new Promise((resolve) => setTimeout(resolve, waitMs))
}

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
