import type { Decision, Policy } from './gcra.ts'

/**
 * The rate-limit headers of a limited response: the IETF fields of
 * draft-ietf-httpapi-ratelimit-headers-10 (RateLimit-Policy with q = requests per w seconds;
 * RateLimit with r = requests left now and t = seconds until the full burst is back), and the
 * widely used X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, whose reset is
 * likewise in seconds from now (not a timestamp).
 */
export function rateLimitHeaders(name: string, policy: Policy, decision: Decision): Record<string, string> {
  const windowSeconds = Math.max(1, Math.round(policy.windowMs / 1000))
  const resetSeconds = Math.max(0, Math.ceil(decision.resetMs / 1000))
  const headers: Record<string, string> = {
    'ratelimit-policy': `"${name}";q=${policy.limit};w=${windowSeconds}`,
    ratelimit: `"${name}";r=${decision.remaining};t=${resetSeconds}`,
    'x-ratelimit-limit': String(policy.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(resetSeconds),
  }
  if (!decision.allowed) headers['retry-after'] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)))
  return headers
}
