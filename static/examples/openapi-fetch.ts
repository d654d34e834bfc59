// A typed client generated from the OpenAPI document with openapi-typescript and openapi-fetch:
//   npx openapi-typescript http://localhost:3000/swagger/json -o generated/imgapi.ts
// with a transform that maps `format: binary` to Blob (see the docs). No casts needed below.
import createClient from 'openapi-fetch'
import type { paths } from './generated/imgapi.ts'

export function imgapiClient(baseUrl = 'http://localhost:3000') {
  return createClient<paths>({ baseUrl })
}

type ImgapiClient = ReturnType<typeof imgapiClient>

export async function compressToWebp(imgapi: ImgapiClient, image: Blob) {
  const { data, error, response } = await imgapi.POST('/api/compress', {
    params: { query: { format: 'webp', quality: 75, width: 1600 } },
    body: { file: image },
    // The document allows multipart or the raw image; this call sends multipart.
    bodySerializer(body) {
      if (body instanceof Blob) return body
      const form = new FormData()
      form.append('file', body.file)
      return form
    },
    parseAs: 'blob',
  })
  if (error) throw new Error(`${error.code}: ${error.detail} (request ${error.requestId})`)
  const originalBytes = Number(response.headers.get('X-Original-Size'))
  return { webp: data, savedPercent: Math.round((1 - data.size / originalBytes) * 100) }
}

export async function writableFormats(imgapi: ImgapiClient): Promise<string[]> {
  const { data, error } = await imgapi.GET('/api/formats')
  if (error) throw new Error(`${error.code}: ${error.detail}`)
  return (data.formats ?? []).flatMap((format) => (format.output && format.id ? [format.id] : []))
}
