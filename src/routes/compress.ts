import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { endpointOf } from '../endpoints.ts'
import { admit } from '../http/admission.ts'
import { baseName } from '../http/filename.ts'
import { imageResponse } from '../http/image-response.ts'
import { timedRunner } from '../http/job-times.ts'
import { armUploadTimer } from '../http/upload-deadline.ts'
import { acceptedImageFormats } from '../http/negotiate.ts'
import { collectOptionInputs } from '../http/options-source.ts'
import { readUpload } from '../http/read-body.ts'
import { metaOf } from '../http/request-meta.ts'
import { requestTarget } from '../http/request-target.ts'
import { addVary } from '../http/vary.ts'
import { compressImage, type CompressLimits } from '../image/compress.ts'
import { compressOpenApi } from '../openapi/compress.ts'
import { parseCompressOptions } from '../options/parse.ts'

export function compressRoutes(context: AppContext) {
  const { config } = context
  const limits: CompressLimits = { ...config, decodeBudgetBytes: context.memory.decodeBudgetBytes }
  return new Elysia().post(
    endpointOf('compress').path,
    async ({ request, set, server }) => {
      const admission = admit(context, request)
      try {
        const meta = metaOf(request)
        const started = performance.now()
        const disarm = armUploadTimer(server, request, config.uploadTimeoutMs)
        const upload = await readUpload(request, {
          maxUploadBytes: config.maxUploadBytes,
          deadline: started + config.uploadTimeoutMs,
        })
        disarm()
        meta.bytesIn = upload.bytes.length
        const readMs = performance.now() - started
        const options = parseCompressOptions(
          collectOptionInputs(requestTarget(request).query, upload.fields),
          config,
        )
        const formats = {
          listed: options.formats?.split(',').map((name) => name.trim()),
          accepted: acceptedImageFormats(request.headers.get('accept')),
        }
        const result = await compressImage(
          upload.bytes,
          options,
          {
            runner: timedRunner(admission.ticket, (meta.job = {})),
            executor: context.executor,
            limits,
            formats,
          },
          upload.overlay,
        )
        meta.bytesOut = result.data.length
        meta.outputFormat = result.outputFormat
        context.metrics.compressed({
          inputFormat: result.inputFormat,
          outputFormat: result.outputFormat,
          inputBytes: result.inputBytes,
          outputBytes: result.data.length,
        })
        addVary(set.headers, 'Accept')
        return imageResponse(result, { request, baseName: baseName(upload.filename), readMs })
      } finally {
        admission.release()
      }
    },
    // The body is read by readUpload, under the upload limits, never by the framework.
    { parse: 'none', detail: compressOpenApi(config, context.access.needsKey('compress')) },
  )
}
