import type { Config } from '../config.ts'
import type { GuardedOperation } from '../endpoints.ts'
import { AppError } from '../errors/app-error.ts'
import { identify, clientAddress, type ClientIdentity } from './client-identity.ts'
import { rateLimitHeaders } from '../rate/headers.ts'
import type { RateLimiter } from '../rate/rate-limiter.ts'
import type { KeySource } from './key-source.ts'

/**
 * The checks a request meets before its body is read: its API key (when keys are on), then its
 * rate limit. Health, the docs and the OpenAPI document are never checked; formats only when
 * IMGAPI_FORMATS_REQUIRE_KEY says so, and it has no rate limit.
 */
export type GuardedRoute = GuardedOperation

export interface AccessDecision {
  /** Who sent it: the key's id when a known key came, else the address. */
  readonly client: ClientIdentity
  /** Rate-limit headers for the response, when a limit is in force. */
  readonly headers: Readonly<Record<string, string>>
  /** Set when the request is refused: the answer to send instead of reading its body. */
  readonly refusal?: AppError
}

/** The key a request presents: `Authorization: Bearer <key>`, else `X-API-Key: <key>`. */
export function presentedKey(request: Request): string | undefined {
  const authorization = request.headers.get('authorization')
  const bearer = authorization && /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
  return bearer || request.headers.get('x-api-key')?.trim() || undefined
}

export class AccessControl {
  constructor(
    private readonly config: Pick<Config, 'trustProxy' | 'formatsRequireKey'>,
    readonly keys: KeySource,
    readonly limiter: RateLimiter,
  ) {}

  needsKey(route: GuardedRoute): boolean {
    return this.keys.enabled && (route === 'compress' || this.config.formatsRequireKey)
  }

  async check(request: Request, route: GuardedRoute, peer: string | undefined): Promise<AccessDecision> {
    const presented = presentedKey(request)
    const key = presented && this.keys.enabled ? this.keys.find(presented) : undefined
    const client = identify(clientAddress(request, peer, this.config.trustProxy), key)
    if (this.needsKey(route) && !key) {
      return {
        client,
        headers: {},
        refusal: new AppError(
          'UNAUTHORIZED',
          presented
            ? 'expected a valid API key, received one this server does not know'
            : 'expected an API key in Authorization: Bearer <key> or X-API-Key, received none',
          { headers: { 'www-authenticate': 'Bearer realm="imgapi"' } },
        ),
      }
    }
    if (route !== 'compress') return { client, headers: {} }
    const outcome = await this.limiter.take(client.limiterKey, key?.policy)
    if (outcome.kind === 'off') return { client, headers: {} }
    if (outcome.kind === 'unavailable') {
      if (outcome.failOpen) return { client, headers: {} }
      return {
        client,
        headers: {},
        refusal: new AppError(
          'UNAVAILABLE',
          'expected the shared rate-limit store to answer, it did not; retry shortly',
          { headers: { 'retry-after': '1' } },
        ),
      }
    }
    const headers = rateLimitHeaders(outcome.name, outcome.policy, outcome.decision)
    if (outcome.decision.allowed) return { client, headers }
    return {
      client,
      headers,
      refusal: new AppError(
        'RATE_LIMITED',
        `expected at most ${outcome.policy.limit} requests per ${outcome.policy.windowMs} ms (a burst of ${outcome.policy.burst}), received more; retry in ${headers['retry-after']} s`,
        { headers },
      ),
    }
  }
  /** Stops watching the keys file and closes the connection to Redis, once no request needs them. */
  close(): void {
    this.keys.close()
    this.limiter.close()
  }
}
