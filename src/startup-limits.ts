import type { Config } from './config.ts'
import { SETTINGS, type SettingName, type SettingSpec } from './settings.ts'

/** The settings marked `limit` in the settings table. */
export type LimitName = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { readonly limit: true } ? K : never
}[SettingName]

type Limits = Record<LimitName, number | string>

const LIMITS = (Object.entries(SETTINGS) as [SettingName, SettingSpec][])
  .filter(([, spec]) => spec.limit && !spec.secret)
  .map(([name]) => name as LimitName)

/**
 * The start-up line's `limits`: every setting marked `limit`, in the table's order, so a new
 * limit is listed by marking it there. A setting's configured value is shown unless `shown`
 * gives the one in force instead (a cap derived when the setting is 0, a rate with its window).
 */
export function startupLimits(
  config: Pick<Config, LimitName>,
  shown: Partial<Record<LimitName, number | string>> = {},
): Limits {
  return Object.fromEntries(LIMITS.map((name) => [name, shown[name] ?? config[name]])) as Limits
}
