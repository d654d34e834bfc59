import { ENDPOINT_LIST, REFERENCE_PATH } from './endpoints.ts'
import { en } from './i18n.ts'
import { displayValue } from './setting-values.ts'
import { SETTINGS, type SettingName, type SettingSpec } from './settings.ts'
import { NAME, VERSION } from './version.ts'

const PLACEHOLDER: Record<SettingSpec['kind'], string> = {
  integer: 'n',
  duration: 'ms',
  boolean: 'bool',
  string: 'value',
  enum: 'value',
  url: 'url',
  path: 'file',
}

/** `--help` text, generated from the settings table so it cannot fall behind it. */
export function helpText(): string {
  const rows = (Object.entries(SETTINGS) as [SettingName, SettingSpec][]).map(([setting, spec]) => {
    const name = `  ${spec.flag} <${PLACEHOLDER[spec.kind]}>`
    const description = en.settings[setting].description
    return `${name.padEnd(34)}${description}\n${''.padEnd(34)}env ${spec.env.join(' or ')}, default ${displayValue(spec, spec.default)}`
  })
  return [
    `${NAME} ${VERSION}: image compression and conversion over HTTP`,
    '',
    `Usage: ${NAME} [flags]`,
    `       ${NAME} keys new --id <id> [--limit <requests>/<duration>] [--burst <n>]   (a new API key and its keys-file line)`,
    `       ${NAME} compress <file|folder|->... [options]   (the API's compression on files; ${NAME} compress --help)`,
    '',
    'Flags (each also settable by environment variable; a flag wins over the environment):',
    ...rows,
    `  --help${''.padEnd(28)}Show this help and exit`,
    `  --version${''.padEnd(25)}Print the version and exit`,
    `  --licenses${''.padEnd(24)}Print the third-party notices (licences of everything inside) and exit`,
    '',
    `Endpoints: ${ENDPOINT_LIST}; reference at ${REFERENCE_PATH}.`,
  ].join('\n')
}
