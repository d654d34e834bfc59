import { sha256Hex } from './api-keys.ts'

/**
 * `imgapi keys new --id <id> [--limit <requests>/<duration>] [--burst <n>]`: a fresh random key
 * (256 bits) and the line that goes into the keys file. The key itself is printed once and
 * stored nowhere; the file only ever holds its hash.
 */
export function newKey(): string {
  return `imgapi_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
}

export function keyFileLine(id: string, key: string, extras: readonly string[] = []): string {
  return [id, `sha256:${sha256Hex(key)}`, ...extras].join(' ')
}

export function runKeysCommand(args: readonly string[]): number {
  const [verb, ...rest] = args
  const option = (name: string) => {
    const index = rest.indexOf(name)
    return index === -1 ? undefined : rest[index + 1]
  }
  const id = option('--id')
  if (verb !== 'new' || !id || !/^[A-Za-z0-9._-]{1,64}$/.test(id)) {
    console.error('usage: imgapi keys new --id <id> [--limit <requests>/<duration>] [--burst <n>]')
    console.error('  <id>: letters, digits, . _ or -; <duration>: such as 60000ms, 60s, 1m or 1h')
    return 2
  }
  const extras = [
    option('--limit') && `limit=${option('--limit')}`,
    option('--burst') && `burst=${option('--burst')}`,
  ]
  const key = newKey()
  console.log('# The key, for the client (shown once, stored nowhere):')
  console.log(key)
  console.log('# The line for the keys file (IMGAPI_API_KEYS_FILE):')
  console.log(
    keyFileLine(
      id,
      key,
      extras.filter((e): e is string => Boolean(e)),
    ),
  )
  return 0
}
