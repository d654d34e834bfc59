/*
 * Images from where they live: a request's `url`, fetched through a guard that decides who may
 * be fetched (url-policy.ts, ip-ranges.ts) at the place that connects (fetch-source.ts). The
 * only file of this folder that others import.
 */
import { lookup } from 'node:dns/promises'
import { AppError } from '../errors/app-error.ts'
import { fetchSource, type Fetched, type Resolve } from './fetch-source.ts'
import type { ObjectReader } from '../store/index.ts'
import { fetchS3Source, isS3Url } from './s3-source.ts'
import { parseSourceUrl } from './source-url.ts'
import { parseAllowList, type AllowList, type UrlSourcesMode } from './url-policy.ts'

export type { Fetched, Resolve } from './fetch-source.ts'
export { shownUrl } from './source-url.ts'

export interface UrlSourceSettings {
  readonly urlSources: string
  readonly urlAllow: string
  readonly urlTimeoutMs: number
  readonly urlMaxFetches: number
  readonly urlMaxFetchesPerHost: number
  readonly maxUploadBytes: number
}

/** The origin must start answering within this, connection included. */
export const FIRST_BYTE_MS = 10_000
/** Redirects followed, each judged again as a new URL. */
export const MAX_REDIRECTS = 5

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), every address it gives. */
export const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

function busy(what: string): AppError {
  return new AppError('OVERLOADED', `expected a free place to fetch the url, ${what}; retry in 1 s`, {
    headers: { 'retry-after': '1' },
  })
}

/** The URL sources this server fetches, with its limits on fetches in flight. */
export class UrlSources {
  readonly mode: UrlSourcesMode
  readonly allow: AllowList
  #inFlight = 0
  readonly #perHost = new Map<string, number>()

  constructor(
    private readonly settings: UrlSourceSettings,
    private readonly resolve: Resolve = systemResolve,
    /** The storage's objects under IMGAPI_URL_S3, for s3:// URLs; absent, they are refused. */
    private readonly objects?: ObjectReader,
  ) {
    this.mode = settings.urlSources as UrlSourcesMode
    // Checked at start-up: a bad entry stops the server with the variable named.
    this.allow = parseAllowList(settings.urlAllow)
  }

  /**
   * The image at `url`, within the upload limit and the URL timeout, or the catalogue's error.
   * `onLength` hears the origin's declared length before the body is read.
   */
  async fetch(url: string, onLength?: (bytes: number) => void): Promise<Fetched> {
    if (isS3Url(url)) return this.#fetchObject(url, onLength)
    const { host } = parseSourceUrl(url)
    const release = this.#enter(host)
    try {
      return await fetchSource(
        url,
        {
          mode: this.mode,
          allow: this.allow,
          maxBytes: this.settings.maxUploadBytes,
          firstByteMs: FIRST_BYTE_MS,
          deadline: performance.now() + this.settings.urlTimeoutMs,
          maxRedirects: MAX_REDIRECTS,
        },
        { resolve: this.resolve, ...(onLength ? { onLength } : {}) },
      )
    } finally {
      release()
    }
  }

  /** An s3:// URL: counted as fetches from its bucket, under the same limits. */
  async #fetchObject(url: string, onLength?: (bytes: number) => void): Promise<Fetched> {
    const release = this.#enter(`s3:${/^\s*s3:\/\/([^/]*)/i.exec(url)?.[1] ?? ''}`)
    try {
      return await fetchS3Source(
        url,
        this.objects,
        {
          maxBytes: this.settings.maxUploadBytes,
          firstByteMs: FIRST_BYTE_MS,
          deadline: performance.now() + this.settings.urlTimeoutMs,
        },
        onLength ? { onLength } : {},
      )
    } finally {
      release()
    }
  }

  #enter(host: string): () => void {
    if (this.#inFlight >= this.settings.urlMaxFetches)
      throw busy(`${this.#inFlight} fetches are in progress (IMGAPI_URL_MAX_FETCHES)`)
    const forHost = this.#perHost.get(host) ?? 0
    if (forHost >= this.settings.urlMaxFetchesPerHost)
      throw busy(`${forHost} fetches from this host are in progress (IMGAPI_URL_MAX_FETCHES_PER_HOST)`)
    this.#inFlight++
    this.#perHost.set(host, forHost + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      this.#inFlight--
      const left = (this.#perHost.get(host) ?? 1) - 1
      if (left > 0) this.#perHost.set(host, left)
      else this.#perHost.delete(host)
    }
  }
}
