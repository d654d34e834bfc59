import { SETTINGS, type SettingName, type SettingSpec } from '../../settings.ts'
import { html, type Html } from '../html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

/** Budgets set to 0 are derived from the memory limit: the docs show what is in force. */
function effective(ctx: PageContext, name: SettingName): number | string | boolean {
  const { memory, config } = ctx.app
  if (name === 'memoryLimitBytes') return memory.limitBytes
  if (name === 'uploadBudgetBytes') return memory.uploadBudgetBytes
  if (name === 'decodeBudgetBytes') return memory.decodeBudgetBytes
  return config[name]
}

/** How a setting's value reads: sizes and counts in the given digits, words as they are. */
export function settingValue(ctx: PageContext, name: SettingName, numbers = ctx.numbers): string {
  const value = effective(ctx, name)
  const spec: SettingSpec = SETTINGS[name]
  // A secret only says whether it is set, in every language.
  if (spec.secret) return ctx.t(value === '' ? 'site.common.notSet' : 'site.common.set')
  if (typeof value === 'boolean') return ctx.t(value ? 'site.common.yes' : 'site.common.no')
  if (typeof value !== 'number') return value === '' ? ctx.t('site.common.none') : String(value)
  if (name.endsWith('Bytes')) return value === 0 ? numbers.integer(0) : numbers.bytes(value)
  if (name.endsWith('Ms')) return numbers.seconds(value)
  return numbers.integer(value)
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
      SETTINGS[name].kind === 'enum'
        ? code(settingValue(ctx, name))
        : settingValue(ctx, name, ctx.valueNumbers),
      t(`settings.${name}.description`),
    ]),
    rowIds: names.map((name) => `setting-${name}`),
  })
}
