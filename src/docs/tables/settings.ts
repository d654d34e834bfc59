import { SETTINGS, type SettingName } from '../../settings.ts'
import { html, type Html } from '../html.ts'
import type { PageContext } from '../page-context.ts'
import { code, table } from './table.ts'

/** How a setting's value reads: sizes and counts in the reader's digits, words as they are. */
export function settingValue(ctx: PageContext, name: SettingName): string {
  const value = ctx.app.config[name]
  if (typeof value !== 'number') return value === '' ? ctx.t('site.common.none') : String(value)
  if (name.endsWith('Bytes')) return value === 0 ? ctx.numbers.integer(0) : ctx.numbers.bytes(value)
  if (name.endsWith('Ms')) return ctx.numbers.seconds(value)
  return ctx.numbers.integer(value)
}

/** Every setting with its value on this server, from the settings table. */
export function settingsTable(ctx: PageContext): Html {
  const { t } = ctx
  const names = Object.keys(SETTINGS) as SettingName[]
  return table({
    headers: [t('site.common.setting'), t('site.common.value'), t('site.common.description')],
    rows: names.map((name) => [
      html`${code(SETTINGS[name].env[0]!)}<br><small>${code(SETTINGS[name].flag)}</small>`,
      settingValue(ctx, name),
      t(`settings.${name}.description`),
    ]),
    rowIds: names.map((name) => `setting-${name}`),
  })
}
