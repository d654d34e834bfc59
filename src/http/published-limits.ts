import type { Config } from '../config.ts'
import type { SettingName } from '../settings.ts'
import { clientJobCap } from './client-jobs.ts'

/**
 * The limits GET /api/formats publishes: what any client needs to pace itself (requests in
 * flight) and to check a file before uploading it (bytes, pixels, frames, output size). Each is
 * a setting, published under the setting's name with the value this server enforces.
 */
export const PUBLISHED_LIMITS = [
  'workers',
  'maxClientJobs',
  'maxUploadBytes',
  'maxInputPixels',
  'maxOutputPixels',
  'maxOutputDimension',
  'maxVariants',
  'maxFrames',
  'maxHeifPixels',
  'maxJxlPixels',
] as const satisfies readonly SettingName[]

export type PublishedLimit = (typeof PUBLISHED_LIMITS)[number]
export type PublishedLimits = Readonly<Record<PublishedLimit, number>>

export function publishedLimits(config: Config): PublishedLimits {
  const limits = Object.fromEntries(PUBLISHED_LIMITS.map((name) => [name, config[name]])) as Record<
    PublishedLimit,
    number
  >
  // 0 means "derived": the client needs the cap in force, not the setting's raw value.
  limits.maxClientJobs = clientJobCap(config.maxClientJobs, config.workers, config.queueLength)
  return limits
}
