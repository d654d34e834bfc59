import { SETTINGS, type SettingName, type SettingSpec } from '../../settings.ts'
import { html, type Html } from '../../site/html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

interface Derived {
  readonly value: number
  /** Key under site.reference.derived: how the value was worked out, in words. */
  readonly how: string
}

/**
 * Settings whose 0 means "work it out": the docs show the value in force, never the raw 0,
 * with a note of how it was derived.
 */
const DERIVED: Partial<Record<SettingName, (ctx: PageContext) => Derived>> = {
  memoryLimitBytes: ({ app }) => ({
    value: app.memory.limitBytes,
    how: app.memory.limitSource === 'container' ? 'memoryContainer' : 'memorySystem',
  }),
  uploadBudgetBytes: ({ app }) => ({ value: app.memory.uploadBudgetBytes, how: 'uploadBudget' }),
  decodeBudgetBytes: ({ app }) => ({ value: app.memory.decodeBudgetBytes, how: 'decodeBudget' }),
  rateBurst: ({ app }) => ({
    value: app.access.limiter.globalPolicy?.burst ?? app.config.rateLimit,
    how: 'rateBurst',
  }),
  maxClientJobs: ({ app }) => ({ value: app.clientJobs.cap, how: 'clientJobs' }),
}

function derived(ctx: PageContext, name: SettingName): Derived | undefined {
  return ctx.app.config[name] === 0 ? DERIVED[name]?.(ctx) : undefined
}

function formatted(
  ctx: PageContext,
  name: SettingName,
  value: number | string | boolean,
  numbers = ctx.numbers,
): string {
  const spec: SettingSpec = SETTINGS[name]
  // A secret, or an operator-only value such as the URL allow-list, only says whether it is set.
  if (spec.secret || spec.private) return ctx.t(value === '' ? 'site.common.notSet' : 'site.common.set')
  if (typeof value === 'boolean') return ctx.t(value ? 'site.common.yes' : 'site.common.no')
  if (typeof value !== 'number') return value === '' ? ctx.t('site.common.none') : String(value)
  if (name.endsWith('Bytes')) return value === 0 ? numbers.integer(0) : numbers.bytes(value)
  if (name.endsWith('Ms')) return numbers.seconds(value)
  return numbers.integer(value)
}

/** How a setting's value in force reads: sizes and counts in the given digits, words as they are. */
export function settingValue(ctx: PageContext, name: SettingName, numbers = ctx.numbers): string {
  return formatted(ctx, name, derived(ctx, name)?.value ?? ctx.app.config[name], numbers)
}

/** The value in force, and for a derived one (set to 0) how it was worked out. */
export function settingCell(ctx: PageContext, name: SettingName, numbers = ctx.numbers): Html {
  const how = derived(ctx, name)?.how
  const value = settingValue(ctx, name, numbers)
  const shown = SETTINGS[name].kind === 'enum' ? code(value) : html`${value}`
  return how ? html`${shown}<br><small>${ctx.t(`site.reference.derived.${how}`)}</small>` : shown
}

/** Every setting a caller may know, with its value on this server, from the settings table. */
export function settingsTable(ctx: PageContext): Html {
  const { t } = ctx
  const names = (Object.keys(SETTINGS) as SettingName[]).filter(
    (name) => !(SETTINGS[name] as SettingSpec).private,
  )
  return table({
    headers: [t('site.common.setting'), t('site.common.value'), t('site.common.description')],
    rows: names.map((name) => [
      html`${code(SETTINGS[name].env[0]!)}<br><small>${code(SETTINGS[name].flag)}</small>`,
      // Latin digits in the reference: the row also holds names and values a caller types.
      settingCell(ctx, name, ctx.valueNumbers),
      t(`settings.${name}.description`),
    ]),
    rowIds: names.map((name) => `setting-${name}`),
  })
}
