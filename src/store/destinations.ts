/*
 * Where a request may write: the operator's IMGAPI_STORE list of s3://bucket/prefix/
 * destinations, and a request's store option matched against it. Nothing outside the list is
 * writable, so the option can never name a bucket or a prefix the operator did not.
 */
import { AppError } from '../errors/app-error.ts'
import { echo } from '../errors/echo.ts'
import { ConfigError } from '../setting-values.ts'

export interface Destination {
  readonly bucket: string
  /** Empty (the whole bucket) or ending in `/`, so `img/` never admits `img2/`. */
  readonly prefix: string
}

/** A store option resolved against the destinations: the key template still to expand. */
export interface StoreTarget extends Destination {
  readonly template: string
}

// S3's rule for bucket names (3-63 lower-case letters, digits, dots, hyphens), which also keeps
// a name from carrying a host or a path.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const S3_URL = /^s3:\/\/([^/]*)(?:\/(.*))?$/s

function split(text: string): { bucket: string; rest: string } | undefined {
  const match = S3_URL.exec(text)
  return match ? { bucket: match[1]!, rest: match[2] ?? '' } : undefined
}

export function parseDestinations(list: string, source = 'IMGAPI_STORE'): Destination[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  return entries.map((entry) => {
    const parts = split(entry)
    if (!parts || !BUCKET.test(parts.bucket))
      throw new ConfigError(
        `${source} must be a comma-separated list of s3://bucket/prefix/ destinations, received "${entry}"`,
      )
    const prefix = parts.rest === '' || parts.rest.endsWith('/') ? parts.rest : `${parts.rest}/`
    if (prefix.startsWith('/') || prefix.split('/').some((segment) => segment === '..' || segment === '.'))
      throw new ConfigError(`${source}: the prefix of "${entry}" must be a plain path such as images/`)
    return { bucket: parts.bucket, prefix }
  })
}

function notAllowed(detail: string): AppError {
  return new AppError('STORE_NOT_ALLOWED', detail)
}

/**
 * The destination a store option writes under (the longest prefix that holds it) and the key
 * template after that prefix; STORE_NOT_ALLOWED when store is off or the place is not listed.
 */
export function resolveTarget(option: string, destinations: readonly Destination[]): StoreTarget {
  const parts = split(option)
  if (!parts)
    throw new AppError(
      'INVALID_PARAMETER',
      `store: expected s3://bucket/prefix/ followed by a key template, received ${echo(option)}`,
      { errors: [{ name: 'store', reason: 'expected s3://bucket/prefix/<key template>' }] },
    )
  const held = destinations
    .filter((d) => d.bucket === parts.bucket && parts.rest.startsWith(d.prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0]
  if (!held)
    throw notAllowed(
      `expected store under one of this server's destinations, received ${echo(option)}, which is under none of them`,
    )
  const template = parts.rest.slice(held.prefix.length)
  if (template === '')
    throw new AppError(
      'INVALID_PARAMETER',
      `store: expected a key template after s3://${held.bucket}/${held.prefix}, such as {name}-{width}.{ext}`,
      { errors: [{ name: 'store', reason: 'expected a key template after the prefix' }] },
    )
  return { ...held, template }
}
