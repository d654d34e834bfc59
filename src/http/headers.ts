import type { Operation } from '../errors/catalogue.ts'
import { en } from '../i18n.ts'

/**
 * Every response header the API documents, declared once. CORS exposes them to browsers, the
 * OpenAPI document describes them per operation, and the docs list them: all from this table.
 * The text lives in locales/<lng>.json under headers.<Name>.
 */
export type HeaderName = keyof typeof en.headers

export interface HeaderSpec {
  readonly type: 'string' | 'integer' | 'number' | 'array'
  /** The operations whose successful responses carry it. */
  readonly on: readonly Operation[]
  readonly enum?: readonly string[]
  /** Sent only in some cases (the rest are always sent on the operations listed). */
  readonly optional?: true
  /** Sent with error responses too: openapi/error-headers.ts says on which statuses. */
  readonly onErrors?: true
}

export const RESULT_KINDS = ['compressed', 'optimised', 'original'] as const

/*
 * The headers that describe one image (X-Original-Size to X-Result) are on every answer of one
 * image and on none of a variants answer: optional for the operation as a whole.
 */
export const RESPONSE_HEADERS = {
  'X-Request-Id': { type: 'string', on: ['health', 'formats', 'compress'], onErrors: true },
  'Content-Disposition': { type: 'string', on: ['compress'], optional: true },
  'X-Original-Size': { type: 'integer', on: ['compress'], optional: true },
  'X-Compressed-Size': { type: 'integer', on: ['compress'], optional: true },
  'X-Compression-Ratio': { type: 'number', on: ['compress'], optional: true },
  'X-Original-Format': { type: 'string', on: ['compress'], optional: true },
  'X-Output-Format': { type: 'string', on: ['compress'], optional: true },
  'X-Image-Width': { type: 'integer', on: ['compress'], optional: true },
  'X-Image-Height': { type: 'integer', on: ['compress'], optional: true },
  'X-Quality': { type: 'integer', on: ['compress'], optional: true },
  'X-Similarity': { type: 'string', on: ['compress'], optional: true },
  'X-Resized-To-Fit': { type: 'string', on: ['compress'], optional: true },
  'X-Result': { type: 'string', on: ['compress'], enum: RESULT_KINDS, optional: true },
  // A variants answer (a ZIP or JSON of several images) describes each image in its manifest,
  // so it has these two instead of the headers of one image above.
  'X-Variants': { type: 'integer', on: ['compress'], optional: true },
  'X-Variants-Failed': { type: 'integer', on: ['compress'], optional: true },
  'X-Source-Url': { type: 'string', on: ['compress'], optional: true },
  'X-Ignored-Options': { type: 'array', on: ['compress'], optional: true },
  'Server-Timing': { type: 'string', on: ['compress'] },
  'Retry-After': { type: 'integer', on: [], onErrors: true },
  'RateLimit-Policy': { type: 'string', on: ['compress'], optional: true, onErrors: true },
  RateLimit: { type: 'string', on: ['compress'], optional: true, onErrors: true },
  'X-RateLimit-Limit': { type: 'integer', on: ['compress'], optional: true, onErrors: true },
  'X-RateLimit-Remaining': { type: 'integer', on: ['compress'], optional: true, onErrors: true },
  'X-RateLimit-Reset': { type: 'integer', on: ['compress'], optional: true, onErrors: true },
  'WWW-Authenticate': { type: 'string', on: [], onErrors: true },
  ETag: { type: 'string', on: ['formats'] },
  'Cache-Control': { type: 'string', on: ['health', 'formats', 'compress'], onErrors: true },
  Vary: { type: 'string', on: ['formats', 'compress'] },
} as const satisfies Record<HeaderName, HeaderSpec>

export const HEADER_NAMES = Object.keys(RESPONSE_HEADERS) as HeaderName[]

export function headersOn(operation: Operation): HeaderName[] {
  return HEADER_NAMES.filter((name) =>
    (RESPONSE_HEADERS[name].on as readonly Operation[]).includes(operation),
  )
}

export function errorHeaders(): HeaderName[] {
  return HEADER_NAMES.filter((name) => (RESPONSE_HEADERS[name] as HeaderSpec).onErrors)
}

export function headerDescription(name: HeaderName): string {
  return en.headers[name].description
}
