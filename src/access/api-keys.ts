import { timingSafeEqual } from 'node:crypto'
import type { Policy } from '../rate/gcra.ts'

/**
 * API keys, as the server knows them: only the SHA-256 of each key, with an id for logs and
 * metrics and an optional per-key rate limit. A presented key is hashed and looked up by its
 * hash, then compared in constant time. SHA-256, not a password hash: keys are random and
 * long (256 bits), so a slow hash would protect nothing and cost a denial of service.
 *
 * A keys file has one key per line, `#` starting a comment:
 *   <id> sha256:<64 hex digits> [limit=<requests>/<duration>] [burst=<requests>]
 * for example `ci sha256:9f86…0a08 limit=600/1m burst=50`.
 */
export interface ApiKey {
  readonly id: string
  readonly sha256: string
  /** The key's own limit, in place of IMGAPI_RATE_LIMIT. */
  readonly policy?: Policy
}

export class KeyFileError extends Error {}

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex')
}

const ID = /^[A-Za-z0-9._-]{1,64}$/
const HASH = /^sha256:([0-9a-f]{64})$/
const LIMIT = /^limit=(\d+)\/(\d+)(ms|s|m|h)?$/
const BURST = /^burst=(\d+)$/
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

function parseLine(line: string, number: number): ApiKey {
  const [id = '', hash = '', ...extras] = line.split(/\s+/)
  const fail = (what: string) => new KeyFileError(`line ${number}: ${what}`)
  if (!ID.test(id))
    throw fail(`expected an id of letters, digits, . _ or -, received ${JSON.stringify(id.slice(0, 70))}`)
  const digest = HASH.exec(hash)?.[1]
  if (!digest)
    throw fail(
      'expected sha256:<64 lower-case hex digits> after the id (the key itself never goes in this file)',
    )
  let limit: { limit: number; windowMs: number } | undefined
  let burst: number | undefined
  for (const extra of extras) {
    const l = LIMIT.exec(extra)
    const b = BURST.exec(extra)
    if (l) limit = { limit: Number(l[1]), windowMs: Number(l[2]) * UNIT_MS[l[3] ?? 'ms']! }
    else if (b) burst = Number(b[1])
    else
      throw fail(
        `expected limit=<requests>/<duration> or burst=<requests>, received ${JSON.stringify(extra.slice(0, 70))}`,
      )
  }
  if (limit && (limit.limit < 1 || limit.windowMs < 1))
    throw fail('expected a limit of at least 1 request per at least 1 ms')
  const policy = limit ? { ...limit, burst: burst && burst > 0 ? burst : limit.limit } : undefined
  return { id, sha256: digest, policy }
}

export function parseKeyFile(text: string): ApiKey[] {
  const keys: ApiKey[] = []
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim()
    if (line) keys.push(parseLine(line, index + 1))
  }
  const ids = new Set<string>()
  for (const key of keys) {
    if (ids.has(key.id)) throw new KeyFileError(`the id ${key.id} is used twice`)
    ids.add(key.id)
  }
  return keys
}

/** Keys given directly (IMGAPI_API_KEYS), named by the start of their hash. */
export function keysFromList(list: string): ApiKey[] {
  return list
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
    .map((key) => {
      const digest = sha256Hex(key)
      return { id: `key-${digest.slice(0, 8)}`, sha256: digest }
    })
}

/** A set of keys, looked up by the hash of what a client presents. */
export class KeyRing {
  readonly #byHash: Map<string, ApiKey>

  constructor(keys: readonly ApiKey[]) {
    this.#byHash = new Map(keys.map((key) => [key.sha256, key]))
  }

  get size(): number {
    return this.#byHash.size
  }

  find(presented: string): ApiKey | undefined {
    const digest = sha256Hex(presented)
    const key = this.#byHash.get(digest)
    if (!key) return undefined
    return timingSafeEqual(Buffer.from(key.sha256, 'hex'), Buffer.from(digest, 'hex')) ? key : undefined
  }
}
