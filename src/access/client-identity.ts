import type { ApiKey } from './api-keys.ts'

/**
 * Who a request comes from, for rate limits, the per-client job cap, logs and metrics: its API
 * key when it presents one, else its address. Forwarded addresses are believed only for as
 * many proxies as IMGAPI_TRUST_PROXY says, so a client cannot claim to be someone else.
 */
export interface ClientIdentity {
  /** What limits are counted against: `key:<id>` or `ip:<address>`. */
  readonly limiterKey: string
  /** What logs and metrics show: the key id, or a salted hash of the address (never the address). */
  readonly logId: string
  readonly key?: ApiKey
}

/** The addresses a Forwarded or X-Forwarded-For header lists, nearest proxy last. */
function forwardedChain(request: Request): string[] {
  const xff = request.headers.get('x-forwarded-for')
  if (xff)
    return xff
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
  const forwarded = request.headers.get('forwarded')
  if (!forwarded) return []
  return [...forwarded.matchAll(/for=(?:"\[?([^\]"]+)\]?(?::\d+)?"|([^;,\s]+))/gi)].map((m) =>
    (m[1] ?? m[2])!.trim(),
  )
}

/**
 * The client's address: the connection's peer, or, behind `trustedHops` proxies, the entry the
 * outermost trusted proxy added (each proxy appends the address it saw).
 */
export function clientAddress(request: Request, peer: string | undefined, trustedHops: number): string {
  if (trustedHops > 0) {
    const chain = forwardedChain(request)
    if (chain.length > 0) return chain[Math.max(0, chain.length - trustedHops)]!.slice(0, 64)
  }
  return peer ?? 'unknown'
}

// Per process: log lines can be correlated within a run, but an address cannot be recovered.
const SALT = crypto.getRandomValues(new Uint8Array(16))

function hashAddress(address: string): string {
  return new Bun.CryptoHasher('sha256').update(SALT).update(address).digest('hex').slice(0, 16)
}

export function identify(address: string, key: ApiKey | undefined): ClientIdentity {
  if (key) return { limiterKey: `key:${key.id}`, logId: `key:${key.id}`, key }
  return { limiterKey: `ip:${address}`, logId: `ip:${hashAddress(address)}` }
}
