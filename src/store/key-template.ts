/*
 * A store key from its template: the placeholders filled from the output, then the whole key
 * checked so that it cannot leave its prefix, whatever the template or the upload's name held.
 */
import { AppError } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'

export const PLACEHOLDERS = ['name', 'width', 'height', 'ext', 'format', 'hash', 'date'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]
export type KeyFacts = Readonly<Record<Placeholder, string>>

/** S3's own limit on a key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024
/** Hex digits of the output's SHA-256 that {hash} gives: 64 bits, collisions out of reach. */
export const HASH_HEX_DIGITS = 16

const PLACEHOLDER = /\{([^{}]*)\}/g

/** The placeholders a template uses; an unknown one is a 400 naming the known ones. */
export function placeholdersOf(template: string): Set<Placeholder> {
  const used = new Set<Placeholder>()
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(name!))
      throw new AppError(
        'INVALID_PARAMETER',
        `store: expected placeholders among ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}, received {${echo(name!).slice(1, -1)}}`,
        { errors: [{ name: 'store', reason: `unknown placeholder {${name!.slice(0, 40)}}` }] },
      )
    used.add(name as Placeholder)
  }
  return used
}

export function expandTemplate(template: string, facts: KeyFacts): string {
  return template.replace(PLACEHOLDER, (_, name: Placeholder) => facts[name])
}

/**
 * Refuses a key that could land outside its prefix or be read differently by another tool:
 * `.` and `..` segments, an absolute or empty segment, backslashes, control characters, and
 * keys over S3's 1024 bytes.
 */
export function checkKey(key: string): void {
  const why = keyProblem(key)
  if (why)
    throw new AppError(
      'STORE_NOT_ALLOWED',
      `expected a key that stays under its prefix, received ${echo(key)}: ${why}`,
    )
}

/** Why a key could leave its prefix or is not one S3 stores as written, or undefined. */
export function keyProblem(key: string): string | undefined {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'it holds a control character'
  if (key.includes('\\')) return 'it holds a backslash'
  const segments = key.split('/')
  if (segments.some((segment) => segment === '..' || segment === '.')) return 'it has a . or .. segment'
  if (segments.some((segment) => segment === '')) return 'it is absolute or has an empty segment'
  return undefined
}

/** The date placeholder: the day the output was stored, in UTC. */
export function dateFact(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}
