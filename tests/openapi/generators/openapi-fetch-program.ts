import createClient from 'openapi-fetch'
import type { paths } from './openapi-typescript/imgapi.ts'

// The same with openapi-typescript and openapi-fetch: the multipart upload through the
// bodySerializer its documentation gives for files, the answer read as a Blob; not one cast.
export async function compressWithOpenapiFetch(baseUrl: string, image: Blob) {
  const client = createClient<paths>({ baseUrl })
  const { data, error, response } = await client.POST('/api/compress', {
    body: { file: image, format: 'webp', width: 320 },
    bodySerializer(body) {
      const form = new FormData()
      if (body && 'file' in body && body.file) form.append('file', body.file)
      if (body && 'format' in body && body.format) form.append('format', body.format)
      if (body && 'width' in body && body.width) form.append('width', String(body.width))
      return form
    },
    parseAs: 'blob',
  })
  if (error) throw new Error(`${error.code}: ${error.detail}`)
  return {
    webp: data,
    compressedSize: Number(response.headers.get('X-Compressed-Size')),
    outputFormat: response.headers.get('X-Output-Format'),
  }
}
