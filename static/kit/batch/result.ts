import type { Answer } from '../api/send.ts'
import type { Job, JobResult } from './job.ts'

/**
 * The input's path with the output's extension; a result made for a pixel density (`dpr`) is
 * marked as pages and srcset name them: photo@2x.jpg.
 */
export function resultPath(path: string, query: URLSearchParams, extension: string): string {
  const density = Number(query.get('dpr') ?? 1)
  const marked = density > 1 ? `@${density}x` : ''
  return `${path.replace(/\.[^./]*$/, '')}${marked}.${extension}`
}

/** A job's result from the API's answer: the image, its name, and what the headers say of it. */
export function resultOf(job: Job, answer: Answer, extensionOf: (format: string) => string): JobResult {
  const format = answer.header('x-output-format') ?? ''
  const extension = extensionOf(format)
  return {
    blob: answer.body,
    originalSize: Number(answer.header('x-original-size')),
    name: job.name ? job.name(extension) : resultPath(job.path, job.query, extension),
    format,
    originalFormat: answer.header('x-original-format') ?? '',
    width: Number(answer.header('x-image-width')),
    height: Number(answer.header('x-image-height')),
    quality: answer.header('x-quality'),
    similarity: answer.header('x-similarity'),
    kind: answer.header('x-result'),
    resizedToFit: answer.header('x-resized-to-fit'),
  }
}
