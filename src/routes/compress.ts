import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { baseName } from '../http/filename.ts'
import { imageResponse } from '../http/image-response.ts'
import { collectOptionInputs } from '../http/options-source.ts'
import { readUpload } from '../http/read-body.ts'
import { compressImage } from '../image/compress.ts'
import { COMPRESS_OPENAPI } from '../openapi/compress.ts'
import { parseCompressOptions } from '../options/parse.ts'

export function compressRoutes(context: AppContext) {
  const { config, queue } = context
  return new Elysia().post(
    '/api/compress',
    async ({ request }) => {
      const started = performance.now()
      const upload = await readUpload(request, config.maxUploadBytes)
      const readMs = performance.now() - started
      const options = parseCompressOptions(collectOptionInputs(new URL(request.url), upload.fields))
      const result = await compressImage(upload.bytes, options, { queue, limits: config })
      return imageResponse(result, { request, baseName: baseName(upload.filename), readMs })
    },
    // The body is read by readUpload, under the upload limit, never by the framework.
    { parse: 'none', detail: COMPRESS_OPENAPI },
  )
}
