// A typed client for imgapi: types generated from the server's OpenAPI document with
// openapi-typescript, calls made with openapi-fetch, and not one cast. In a Node.js 20+ project,
// with imgapi running and openapi-types.mjs beside this file, these commands set it up and check it:
//   $ npm install openapi-fetch@0.17.0 openapi-typescript@7.13.0 typescript@5.9.3
//   $ node openapi-types.mjs http://localhost:3000/swagger/json generated/imgapi.ts
//   $ npx tsc --noEmit --strict --target es2022 --module preserve --moduleResolution bundler --lib es2023,dom --allowImportingTsExtensions openapi-fetch.ts
// openapi-types.mjs runs openapi-typescript with one option: `format: binary` (the file sent, the
// image returned) typed as Blob instead of string.
import createClient from 'openapi-fetch'
import type { paths } from './generated/imgapi.ts'

export function imgapiClient(baseUrl = 'http://localhost:3000') {
  return createClient<paths>({ baseUrl })
}

type ImgapiClient = ReturnType<typeof imgapiClient>

// The headers the document declares for a compressed image: a misspelt name does not compile.
type ResultHeader = Extract<keyof paths['/api/compress']['post']['responses'][200]['headers'], string>
const numberHeader = (response: Response, name: ResultHeader) => Number(response.headers.get(name))

export async function compressToWebp(imgapi: ImgapiClient, image: Blob) {
  const { data, error, response } = await imgapi.POST('/api/compress', {
    params: { query: { format: 'webp', quality: 75, width: 1600 } },
    body: { file: image },
    // openapi-fetch sends JSON unless told otherwise; the document allows multipart or the raw
    // image, and this call sends multipart.
    bodySerializer(body) {
      if (body instanceof Blob) return body
      const form = new FormData()
      if (body && 'file' in body && body.file) form.append('file', body.file)
      return form
    },
    parseAs: 'blob',
  })
  if (error) throw new Error(`${error.code}: ${error.detail} (request ${error.requestId})`)
  const originalBytes = numberHeader(response, 'X-Original-Size')
  return { webp: data, savedPercent: Math.round((1 - data.size / originalBytes) * 100) }
}

// An image the server fetches itself: a JSON body names it, with the options in their JSON types
// (openapi-fetch's default serializer is the right one here).
export async function compressUrlToWebp(imgapi: ImgapiClient, url: string) {
  const { data, error, response } = await imgapi.POST('/api/compress', {
    body: { url, format: 'webp', quality: 75, width: 1600 },
    parseAs: 'blob',
  })
  if (error) throw new Error(`${error.code}: ${error.detail} (request ${error.requestId})`)
  return { webp: data, from: response.headers.get('X-Source-Url' satisfies ResultHeader) }
}

export async function writableFormats(imgapi: ImgapiClient): Promise<string[]> {
  const { data, error } = await imgapi.GET('/api/formats')
  if (error) throw new Error(`${error.code}: ${error.detail}`)
  return data.formats.filter((format) => format.output).map((format) => format.id)
}
