import { compressImageWithFormData, listFormats } from './orval/client.ts'

// Compresses an image to WebP with the client orval generates (client: 'fetch', with its
// splitByContentType option), and reads the image and the headers that describe it; not one cast.
export async function compressWithOrval(image: Blob) {
  const answer = await compressImageWithFormData({ file: image, format: 'webp', width: 320 })
  if (answer.status !== 200 || !(answer.data instanceof Blob))
    throw new Error(`compress answered ${answer.status}`)
  const formats = await listFormats()
  return {
    webp: answer.data,
    compressedSize: Number(answer.headers.get('X-Compressed-Size')),
    outputFormat: answer.headers.get('X-Output-Format'),
    formats: formats.status === 200 ? formats.data.formats.length : 0,
  }
}
