import { client } from './hey-api/client.gen.ts'
import { compressImage } from './hey-api/sdk.gen.ts'

// The same with @hey-api/openapi-ts: it types the request as the JSON body, so the image is named
// by its url, and the answer as the JSON envelope, which Accept asks for; not one cast. The
// envelopes of one image, of a variants request and of a stored image share the media type: `in`
// tells them apart.
export async function compressWithHeyApi(baseUrl: string, imageUrl: string) {
  client.setConfig({ baseUrl })
  const { data, error, response } = await compressImage({
    body: { url: imageUrl, format: 'webp', width: 320 },
    headers: { Accept: 'application/json' },
  })
  if (error || !data || !response) throw new Error(`compress failed: ${JSON.stringify(error)}`)
  if ('variants' in data) throw new Error('expected the envelope of one image, received that of variants')
  if ('stored' in data) throw new Error('expected the image itself, received where it was stored')
  const base64 = data.data.slice(data.data.indexOf(',') + 1)
  return {
    webp: new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]),
    compressedSize: data.compressedSize,
    outputFormat: response.headers.get('X-Output-Format'),
  }
}
