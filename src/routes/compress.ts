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
import { imageSource } from '../http/image-source.ts'
import { readUpload } from '../http/read-body.ts'
import { metaOf } from '../http/request-meta.ts'
import { requestTarget } from '../http/request-target.ts'
import { requireScreened } from '../http/screened.ts'
import { addVary } from '../http/vary.ts'
import { compressImage, type CompressLimits, type CompressResult } from '../image/compress.ts'
import { listedFormats } from '../image/candidates.ts'
import { compressVariants } from '../image/variants.ts'
import { requireVariantsContainer, variantsResponse } from '../http/variants-response.ts'
import { planStore, storeSingle, storeVariants } from '../http/store-answer.ts'
import { compressOpenApi } from '../openapi/compress.ts'
import { parseCompressOptions } from '../options/parse.ts'

export function compressRoutes(context: AppContext) {
  const { config } = context
  const limits: CompressLimits = { ...config, decodeBudgetBytes: context.memory.decodeBudgetBytes }
  return new Elysia().post(
    endpointOf('compress').path,
    async ({ request, set, server }) => {
      requireScreened(request, 'compress')
      const admission = admit(context, request)
      const releases: (() => void)[] = []
      try {
        const meta = metaOf(request)
        const started = performance.now()
        const disarm = armUploadTimer(server, request, config.uploadTimeoutMs)
        const upload = await readUpload(request, {
          maxUploadBytes: config.maxUploadBytes,
          deadline: started + config.uploadTimeoutMs,
        })
        disarm()
        const readMs = performance.now() - started
        const options = parseCompressOptions(
          collectOptionInputs(
            requestTarget(request).query,
            upload.fields,
            config,
            upload.kind === 'json' ? 'JSON body' : 'form',
          ),
          config,
        )
        // Where the outputs are stored, checked before any work; the answer is then JSON.
        let store = planStore(context, options, baseName(upload.filename))
        // Several images answer in a container the client must accept: known before any work.
        const container = options.variants && !store ? requireVariantsContainer(request) : undefined
        const source = await imageSource(context, upload, options, (release) => releases.push(release))
        // A url's name is known once it is fetched: the key is checked again with it.
        if (store && source.fetched) store = planStore(context, options, baseName(source.fetched.name))
        meta.bytesIn = source.bytes.length
        if (source.fetched) meta.sourceUrl = source.fetched.url
        const deps = {
          runner: timedRunner(admission.ticket, (meta.job = {})),
          executor: context.executor,
          limits,
        }
        const answer = {
          request,
          baseName: baseName(upload.filename ?? source.fetched?.name),
          readMs,
          ...(source.fetched ? { source: source.fetched } : {}),
        }
        const counted = (result: CompressResult) =>
          context.metrics.compressed({
            inputFormat: result.inputFormat,
            outputFormat: result.outputFormat,
            inputBytes: result.inputBytes,
            outputBytes: result.data.length,
          })
        if (options.variants) {
          const outcome = await compressVariants(
            source.bytes,
            options,
            options.variants,
            deps,
            upload.overlay,
          )
          const { response, answered } = store
            ? await storeVariants(context, store, outcome, answer)
            : await variantsResponse(outcome, answer)
          meta.bytesOut = answered.reduce((sum, result) => sum + result.data.length, 0)
          meta.outputFormat = container ?? 'json'
          answered.forEach(counted)
          addVary(set.headers, 'Accept')
          return response
        }
        const formats = {
          listed: listedFormats(options.formats),
          accepted: acceptedImageFormats(request.headers.get('accept')),
        }
        const result = await compressImage(source.bytes, options, { ...deps, formats }, upload.overlay)
        meta.bytesOut = result.data.length
        meta.outputFormat = result.outputFormat
        counted(result)
        // Stored or not, Vary goes on the image's answer only, never on a store's problem.
        const response = store
          ? await storeSingle(context, store, result, answer)
          : imageResponse(result, answer)
        addVary(set.headers, 'Accept')
        return response
      } finally {
        for (const release of releases) release()
        admission.release()
      }
    },
    // The body is read by readUpload, under the upload limits, never by the framework.
    { parse: 'none', detail: compressOpenApi(config, context.access.needsKey('compress')) },
  )
}
