// Compresses an image in the browser: posts a File to imgapi as multipart and returns the result.
// An ES module with no dependencies: import { compressFile } from './browser.js'
//
// Usage, with <input type="file" accept="image/*"> and <img>:
//   input.addEventListener('change', async () => {
//     const { blob, filename, originalSize, compressedSize } = await compressFile(input.files[0], {
//       format: 'webp',
//       quality: 75,
//     })
//     img.src = URL.createObjectURL(blob)
//     console.log(`${filename}: ${originalSize} -> ${compressedSize} bytes`)
//   })

export async function compressFile(file, options = {}, baseUrl = 'http://localhost:3000') {
  const form = new FormData()
  form.append('file', file)
  for (const [name, value] of Object.entries(options)) form.append(name, String(value))

  const response = await fetch(`${baseUrl}/api/compress`, { method: 'POST', body: form })
  if (!response.ok) {
    // Every error is application/problem+json; a proxy in between may answer otherwise.
    const problem = await response.json().catch(() => ({}))
    throw new Error(`${problem.code ?? response.status}: ${problem.detail ?? response.statusText}`)
  }

  return {
    blob: await response.blob(),
    filename: filenameFrom(response.headers.get('Content-Disposition') ?? ''),
    originalSize: Number(response.headers.get('X-Original-Size')),
    compressedSize: Number(response.headers.get('X-Compressed-Size')),
  }
}

// `inline; filename="photo.webp"`, plus `filename*=UTF-8''caf%C3%A9.webp` when the name is not ASCII.
function filenameFrom(disposition) {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1]
  if (encoded) return decodeURIComponent(encoded)
  return /filename="([^"]*)"/.exec(disposition)?.[1] ?? 'compressed'
}
