/*
 * The storage's settings, resolved once at start-up from the settings table: where the endpoint,
 * region and keys came from is config.ts's business; here they are checked to be complete,
 * because Bun's S3Client left to itself would fill gaps from its own variables (S3_*,
 * AWS_ENDPOINT) or head for AWS itself.
 */
import { readFileSync } from 'node:fs'
import { ConfigError } from '../setting-values.ts'
import { parseDestinations, type Destination } from './destinations.ts'

export interface StoreCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string
}

export interface StoreSettings {
  readonly destinations: readonly Destination[]
  readonly endpoint: string
  readonly region: string
  readonly credentials: StoreCredentials
  readonly virtualHosted: boolean
  readonly cacheControl: string
  readonly timeoutMs: number
}

/** The settings this folder reads (settings.ts declares them), typed here so store/ needs no config.ts. */
export interface StoreConfig {
  readonly store: string
  /** IMGAPI_URL_S3: places a url may read, through the same connection. */
  readonly urlS3: string
  readonly storeEndpoint: string
  readonly storeRegion: string
  readonly storeAccessKeyId: string
  readonly storeSecretAccessKey: string
  readonly storeSecretAccessKeyFile: string
  readonly storeSessionToken: string
  readonly storeVirtualHosted: boolean
  readonly storeCacheControl: string
  readonly storeTimeoutMs: number
}

/** Whether storage is used at all: written to (IMGAPI_STORE) or read from (IMGAPI_URL_S3). */
const usesStorage = (config: StoreConfig) => config.store.trim() !== '' || config.urlS3.trim() !== ''

/** What IMGAPI_STORE or IMGAPI_URL_S3 needs beside it, named by the variables an operator sets. */
export function missingStoreSettings(config: StoreConfig): string[] {
  if (!usesStorage(config)) return []
  const missing: string[] = []
  if (config.storeEndpoint === '') missing.push('an endpoint (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL)')
  if (config.storeRegion === '') missing.push('a region (AWS_REGION or AWS_DEFAULT_REGION)')
  if (config.storeAccessKeyId === '') missing.push('an access key id (AWS_ACCESS_KEY_ID)')
  if (config.storeSecretAccessKey === '' && config.storeSecretAccessKeyFile === '')
    missing.push('a secret key (AWS_SECRET_ACCESS_KEY or AWS_SECRET_ACCESS_KEY_FILE)')
  return missing
}

/** Refuses at start-up a store set without what it needs, or a list that does not parse. */
export function checkStoreConfig(config: StoreConfig): void {
  parseDestinations(config.store)
  parseDestinations(config.urlS3, 'IMGAPI_URL_S3')
  const missing = missingStoreSettings(config)
  const set = config.store.trim() !== '' ? 'IMGAPI_STORE' : 'IMGAPI_URL_S3'
  if (missing.length > 0)
    throw new ConfigError(
      `${set} is set, so imgapi needs ${missing.join(', ')}; imgapi reads these itself and never guesses AWS's own endpoint`,
    )
}

function secretKey(config: StoreConfig): string {
  if (config.storeSecretAccessKey !== '') return config.storeSecretAccessKey
  let text: string
  try {
    text = readFileSync(config.storeSecretAccessKeyFile, 'utf8')
  } catch (error) {
    // The error's code only: its message names the path, which is fine, but never the content.
    throw new ConfigError(
      `AWS_SECRET_ACCESS_KEY_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
  const key = text.trim()
  if (key === '') throw new ConfigError('AWS_SECRET_ACCESS_KEY_FILE is empty')
  return key
}

/** The storage's settings, or undefined when IMGAPI_STORE is empty (store is off). */
export function resolveStoreSettings(config: StoreConfig): StoreSettings | undefined {
  return config.store.trim() === '' ? undefined : storageSettings(config)
}

/** The connection and, as destinations, the places s3:// sources may read; undefined when IMGAPI_URL_S3 is empty. */
export function resolveReadSettings(config: StoreConfig): StoreSettings | undefined {
  if (config.urlS3.trim() === '') return undefined
  return { ...storageSettings(config), destinations: parseDestinations(config.urlS3, 'IMGAPI_URL_S3') }
}

function storageSettings(config: StoreConfig): StoreSettings {
  checkStoreConfig(config)
  const destinations = parseDestinations(config.store)
  return {
    destinations,
    endpoint: config.storeEndpoint,
    region: config.storeRegion,
    credentials: {
      accessKeyId: config.storeAccessKeyId,
      secretAccessKey: secretKey(config),
      ...(config.storeSessionToken !== '' ? { sessionToken: config.storeSessionToken } : {}),
    },
    virtualHosted: config.storeVirtualHosted,
    cacheControl: config.storeCacheControl,
    timeoutMs: config.storeTimeoutMs,
  }
}
