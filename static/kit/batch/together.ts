/*
 * Jobs sent together: the files a generator makes of one image (or Convert's formats of one
 * file) go as the variants of one POST /api/compress, the image uploaded once. The engine asks
 * which jobs make its next request, and sends them.
 */
import {
  postImage,
  postUrl,
  postUrlVariants,
  postVariants,
  type Sending,
  type SendHooks,
} from '../api/send.ts'
import { sharedOptions, variantOptions } from '../api/variants.ts'
import type { Job } from './job.ts'

/**
 * The next request, from the jobs ready in their order: the first, and when it goes `together`,
 * the others of the same image, watermark and shared options, `most` at most (maxVariants).
 */
export function requestOf(ready: readonly Job[], most: number): Job[] {
  const first = ready[0]!
  if (!first.together) return [first]
  const shared = sharedOptions(first.query).toString()
  const same = (job: Job) =>
    job.together &&
    job.file === first.file &&
    job.url === first.url &&
    job.overlay?.blob === first.overlay?.blob &&
    sharedOptions(job.query).toString() === shared
  return ready.filter(same).slice(0, Math.max(1, most))
}

/** One job as its request alone; several as the variants of one request. */
export function sendJobs(jobs: readonly Job[], language: string, hooks: SendHooks): Sending {
  const job = jobs[0]!
  if (jobs.length === 1) {
    if (job.file) return postImage(job.file, job.query, language, hooks, job.overlay?.blob)
    return postUrl(job.url!, job.query, language)
  }
  const shared = sharedOptions(job.query)
  const variants = jobs.map((each) => variantOptions(each.query))
  if (job.file) return postVariants(job.file, shared, variants, language, hooks, job.overlay?.blob)
  return postUrlVariants(job.url!, shared, variants, language)
}
