import { RedisClient } from 'bun'
import type { Logger } from '../log.ts'
import { emissionMs, type Decision, type Policy } from './gcra.ts'

/**
 * GCRA state in Redis, shared by every instance that points at the same Redis: one atomic
 * round trip per request (this Lua script is gcra.ts's arithmetic, on Redis's own clock, so
 * instances whose clocks differ still agree). Bun's client would queue commands while
 * disconnected and has no per-command timeout, so the queue is off, each call races a timeout,
 * and reconnecting is done here. A call with no answer in time marks Redis down just as a
 * closed connection does: a paused or hung Redis keeps its connection open and would otherwise
 * look up for ever. An outage is logged once, and so is the recovery.
 */
const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local tat = math.max(stored, now)
local nxt = tat + interval
if nxt - now > capacity then
  return {0, 0, math.ceil(tat - now), math.ceil(nxt - now - capacity)}
end
redis.call('SET', KEYS[1], tostring(nxt), 'PX', math.max(1, math.ceil(nxt - now)))
return {1, math.floor((capacity - (nxt - now)) / interval + 0.000000001), math.ceil(nxt - now), 0}
`

export class StoreUnavailable extends Error {}

/** Redis did not answer within IMGAPI_REDIS_TIMEOUT_MS: it is paused, hung or too slow. */
class NoAnswer extends Error {}

export interface DependencyStatus {
  readonly status: 'up' | 'down'
  /** When the current state began (ISO time). */
  readonly since: string
}

/** The calls whose failures are counted: rate-limit checks, and attempts to reach Redis again. */
export const REDIS_CALLS = ['rate_limit', 'connect'] as const
export type RedisCall = (typeof REDIS_CALLS)[number]

const RECONNECT_EVERY_MS = 1000

export class RedisRateStore {
  readonly #client: RedisClient
  #state: 'connecting' | 'up' | 'down' = 'connecting'
  #since = new Date().toISOString()
  #reconnecting: ReturnType<typeof setInterval> | undefined
  /** The last probe, until Redis answers it: a paused Redis is not sent one more each second. */
  #probe: Promise<unknown> | undefined
  #closed = false

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
    private readonly onError: (call: RedisCall) => void = () => {},
  ) {
    this.#client = new RedisClient(url, {
      enableOfflineQueue: false,
      autoReconnect: false,
      connectionTimeout: Math.max(timeoutMs, 1000),
    })
    this.#client.onclose = () => this.#markDown('connection closed')
    void this.#reconnect()
  }

  get status(): DependencyStatus {
    return { status: this.#state === 'up' ? 'up' : 'down', since: this.#since }
  }

  async take(key: string, policy: Policy): Promise<Decision> {
    if (this.#state !== 'up') {
      this.onError('rate_limit')
      throw new StoreUnavailable('redis is unreachable')
    }
    const interval = emissionMs(policy)
    const args = ['1', this.prefix + key, String(interval), String(interval * policy.burst)]
    try {
      const [allowed, remaining, resetMs, retryAfterMs] = (await this.#withTimeout(
        this.#client.send('EVAL', [GCRA_SCRIPT, ...args]),
      )) as [number, number, number, number]
      return { allowed: allowed === 1, remaining, resetMs, retryAfterMs, tat: 0 }
    } catch (error) {
      this.onError('rate_limit')
      // A Redis that answers with an error is up; one that does not answer in time is not,
      // whether its connection closed or it hangs with the connection open (paused, swapping).
      if (error instanceof NoAnswer || !this.#client.connected) this.#markDown(messageOf(error))
      throw new StoreUnavailable(messageOf(error))
    }
  }

  close(): void {
    this.#closed = true
    clearInterval(this.#reconnecting)
    this.#client.close()
  }

  #withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new NoAnswer(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs)
    })
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
  }

  /** Connects if needed and pings; Redis is up again as soon as a ping is answered, even late. */
  async #reconnect(): Promise<void> {
    if (this.#probe) {
      this.onError('connect')
      return
    }
    const probe = (async () => {
      if (!this.#client.connected) await this.#client.connect()
      await this.#client.send('PING', [])
    })()
    this.#probe = probe
    void probe
      .then(
        () => this.#markUp(),
        () => {},
      )
      .finally(() => {
        if (this.#probe === probe) this.#probe = undefined
      })
    try {
      await this.#withTimeout(probe)
    } catch (error) {
      this.onError('connect')
      this.#markDown(messageOf(error))
    }
  }

  #markUp(): void {
    if (this.#closed) return
    if (this.#state !== 'up') {
      this.#state = 'up'
      this.#since = new Date().toISOString()
      this.logger.notice('redis reachable; rate limits are shared', {})
    }
    clearInterval(this.#reconnecting)
    this.#reconnecting = undefined
  }

  /** Once per outage: the log line, the time it began, and the reconnect loop. */
  #markDown(reason: string): void {
    if (this.#closed) return
    if (this.#state !== 'down') {
      this.#state = 'down'
      this.#since = new Date().toISOString()
      this.logger.warn('redis unreachable; rate limiting follows IMGAPI_RATE_LIMIT_FAIL', { reason })
    }
    this.#reconnecting ??= setInterval(() => void this.#reconnect(), RECONNECT_EVERY_MS)
    this.#reconnecting.unref?.()
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
