import type { PublishedLimits } from '../../../src/http/published-limits.ts'
import type { FormatInfo } from '../../../src/image/formats.ts'
import { authorization } from './key.ts'

/** One format as GET /api/formats publishes it: the server's own type, so they cannot drift. */
export type ServerFormat = FormatInfo

/** What the tools know about this server: its formats and the limits they pace and check by. */
export interface ServerFacts {
  readonly formats: readonly ServerFormat[]
  readonly limits: PublishedLimits
}

let facts: Promise<ServerFacts> | undefined

/** GET /api/formats, once per page (the key goes along, for servers that guard it too). */
export function serverFacts(): Promise<ServerFacts> {
  facts ??= fetch('/api/formats', { headers: authorization() }).then(async (response) => {
    if (!response.ok) {
      facts = undefined
      throw new Error(`GET /api/formats: ${response.status}`)
    }
    return (await response.json()) as ServerFacts
  })
  return facts
}

export function outputFormats(facts: ServerFacts): ServerFormat[] {
  return facts.formats.filter((format) => format.output)
}

/** The file name extension results of a format get (jpeg → jpg), from the server's table. */
export function extensionOf(facts: ServerFacts, format: string): string {
  return facts.formats.find((f) => f.id === format)?.extensions[0] ?? format
}

/** Requests in flight at most: the server's workers, and never over the per-client cap. */
export function concurrency(facts: ServerFacts): number {
  return Math.max(1, Math.min(facts.limits.workers, facts.limits.maxClientJobs))
}

/** Whether the server answers GET /api/health now with 200: up, and not shutting down. */
export async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch('/api/health', { cache: 'no-store' })).ok
  } catch {
    return false
  }
}
