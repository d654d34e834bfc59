import { availableParallelism } from 'node:os'
import { en } from './i18n.ts'

/**
 * Every setting of the service, declared once. `loadConfig` parses and validates them;
 * `--help`, the docs site and the README's configuration table are generated from this list
 * (the README's is checked by a test). Descriptions live in locales/<lng>.json under
 * settings.<name>, so the docs show them in the reader's language.
 */
export interface SettingSpec {
  readonly env: readonly string[]
  readonly flag: string
  readonly kind: 'integer' | 'duration' | 'boolean' | 'string' | 'enum' | 'url' | 'path'
  readonly default: number | string | boolean
  readonly min?: number
  readonly max?: number
  readonly values?: readonly string[]
  /** For URLs: the schemes accepted, such as `redis:`. */
  readonly protocols?: readonly string[]
  /** Never shown: not in the start-up line, not as a --help default, not in an error. */
  readonly secret?: true
  /**
   * Operator-only: where it listens, where it keeps files, what it logs. The docs site, which
   * anyone who can reach the server may read, shows every setting but these.
   */
  readonly private?: true
  /**
   * One of the bounds an operator checks first, listed under `limits` in the start-up line
   * (startup-limits.ts), where a mistyped variable shows as the default still in force.
   */
  readonly limit?: true
}

const MIB = 1024 * 1024

/**
 * Bun's own limit on a request's head, raised from its default 16 KiB by the runtime flag
 * --max-http-header-size (in package.json's start script and the executable's exec argv).
 * Beyond it Bun answers a bare 431 before any code runs; below it IMGAPI_MAX_HEADER_BYTES
 * decides, in problem+json.
 */
export const BUN_MAX_HEADER_BYTES = 65_536

/**
 * Bun cuts a connection whose request has run longer than its idle timeout, even while the body
 * still trickles in, and that timeout can be at most 255 s.
 * The compress route sets it for the upload from IMGAPI_UPLOAD_TIMEOUT_MS plus this margin
 * (http/upload-deadline.ts), so the upload limit is the one that decides: it can be no longer.
 */
export const BUN_MAX_IDLE_TIMEOUT_SECONDS = 255
export const UPLOAD_IDLE_MARGIN_SECONDS = 5
const MAX_UPLOAD_TIMEOUT_MS = (BUN_MAX_IDLE_TIMEOUT_SECONDS - UPLOAD_IDLE_MARGIN_SECONDS) * 1000

export const SETTINGS = {
  port: {
    env: ['IMGAPI_PORT', 'PORT'],
    flag: '--port',
    private: true,
    kind: 'integer',
    default: 3000,
    min: 0,
    max: 65535,
  },
  host: {
    env: ['IMGAPI_HOST'],
    flag: '--host',
    private: true,
    kind: 'string',
    default: '0.0.0.0',
  },
  // Stops a client from exhausting memory or disk with one huge upload.
  maxUploadBytes: {
    env: ['IMGAPI_MAX_UPLOAD_BYTES'],
    flag: '--max-upload-bytes',
    limit: true,
    kind: 'integer',
    default: 32 * MIB,
    min: 1,
    max: 4096 * MIB,
  },
  // Stops decompression bombs: a small file that declares billions of pixels is refused
  // from its header, before a single pixel is decoded or any memory is allocated for it.
  maxInputPixels: {
    env: ['IMGAPI_MAX_INPUT_PIXELS'],
    flag: '--max-input-pixels',
    limit: true,
    kind: 'integer',
    default: 100_000_000,
    min: 1,
  },
  // Stops a tiny input with width=60000 from being enlarged into a huge allocation.
  maxOutputDimension: {
    env: ['IMGAPI_MAX_OUTPUT_DIMENSION'],
    flag: '--max-output-dimension',
    limit: true,
    kind: 'integer',
    default: 16383,
    min: 1,
    max: 65535,
  },
  // Stops enlargement attacks: a 258-byte 1x1 PNG asked for 16383x16383, or a 10-frame GIF
  // asked for width=16383, once cost gigabytes. Checked from the plan, before any decoding.
  maxOutputPixels: {
    env: ['IMGAPI_MAX_OUTPUT_PIXELS'],
    flag: '--max-output-pixels',
    limit: true,
    kind: 'integer',
    default: 100_000_000,
    min: 1,
  },
  // One upload, several outputs (variants): each is a job's worth of encoding, so the list is
  // capped, and so is the sum of its output pixels (image/variants.ts).
  maxVariants: {
    env: ['IMGAPI_MAX_VARIANTS'],
    flag: '--max-variants',
    kind: 'integer',
    default: 20,
    min: 1,
    max: 64,
  },
  // HEIF and JPEG XL are decoded in WebAssembly, whose memory only grows (never given back) and
  // is capped (libheif's build at 2 GiB, any wasm32 module at 4 GiB); a decode past the cap
  // fails, and the memory it grew stays with the process. A decode cannot be interrupted either.
  // So each decoder gets its own pixel limit, checked from the header (HEIF ispe, the JPEG XL
  // SizeHeader) before decoding. Measured (npm run bench, 12 MP, 2 shared cores): libheif
  // 0.23 s and about 5 bytes of WebAssembly memory per pixel, so 64 MP stays near 15 s and
  // 350 MiB; jxl-oxide 1.2 s and about 37 bytes per pixel, so 24 MP stays within the 30 s job
  // timeout and under 1 GiB.
  maxHeifPixels: {
    env: ['IMGAPI_MAX_HEIF_PIXELS'],
    flag: '--max-heif-pixels',
    kind: 'integer',
    default: 64_000_000,
    min: 1,
  },
  maxJxlPixels: {
    env: ['IMGAPI_MAX_JXL_PIXELS'],
    flag: '--max-jxl-pixels',
    kind: 'integer',
    default: 24_000_000,
    min: 1,
  },
  // libheif and libde265 are LGPL: a user may run the service with their own build of the
  // decoder. Loaded and compiled at start-up; one that does not compile stops the start.
  heifWasm: {
    env: ['IMGAPI_HEIF_WASM'],
    flag: '--heif-wasm',
    private: true,
    kind: 'path',
    default: '',
  },
  // Stops an animation of thousands of small frames from costing as much as a huge still.
  maxFrames: {
    env: ['IMGAPI_MAX_FRAMES'],
    flag: '--max-frames',
    limit: true,
    kind: 'integer',
    default: 1000,
    min: 1,
  },
  // Bounds CPU and memory: at most this many images are decoded and encoded at once, each in
  // a worker process of its own, so a codec that hangs or crashes costs one job, not the server.
  workers: {
    env: ['IMGAPI_WORKERS'],
    flag: '--workers',
    limit: true,
    kind: 'integer',
    default: availableParallelism(),
    min: 1,
    max: 1024,
  },
  // Without worker processes a hung or crashing codec holds or ends the whole server, and a
  // job past its time keeps running: only for benchmarks (the isolation's cost, measured) and
  // platforms that cannot start processes.
  inProcessJobs: {
    env: ['IMGAPI_IN_PROCESS_JOBS'],
    flag: '--in-process-jobs',
    private: true,
    kind: 'boolean',
    default: false,
  },
  // Pinned workers keep their CPU's caches warm between jobs (jobs/cpu-affinity.ts measures it);
  // a machine shared with other busy programs may do better letting the scheduler move them.
  pinWorkers: {
    env: ['IMGAPI_PIN_WORKERS'],
    flag: '--pin-workers',
    kind: 'enum',
    default: 'auto',
    values: ['auto', 'on', 'off'],
  },
  // Idle workers cost memory (about 75 MiB each); a server that rarely works may start them
  // on its first job instead, at the price of that job's start.
  warmWorkers: {
    env: ['IMGAPI_WARM_WORKERS'],
    flag: '--warm-workers',
    kind: 'boolean',
    default: true,
  },
  // Bounds memory held by waiting uploads, and latency: beyond it clients get 503 at once.
  queueLength: {
    env: ['IMGAPI_QUEUE_LENGTH'],
    flag: '--queue-length',
    limit: true,
    kind: 'integer',
    default: 64,
    min: 0,
    max: 100_000,
  },
  // Stops one pathological image from holding a worker forever: at this much work its worker
  // is killed and replaced.
  jobTimeoutMs: {
    env: ['IMGAPI_JOB_TIMEOUT_MS'],
    flag: '--job-timeout-ms',
    limit: true,
    kind: 'duration',
    default: 30_000,
    min: 1,
  },
  // Bounds latency under load: a request that cannot get a worker in this time is told to come
  // back later (503, Retry-After) rather than held until its client gives up.
  queueTimeoutMs: {
    env: ['IMGAPI_QUEUE_TIMEOUT_MS'],
    flag: '--queue-timeout-ms',
    kind: 'duration',
    default: 30_000,
    min: 1,
  },
  // Stops slow-body attacks: a client trickling its upload holds a connection, a queue slot
  // and its share of the upload budget; past this it gets 408 and the connection is closed.
  uploadTimeoutMs: {
    env: ['IMGAPI_UPLOAD_TIMEOUT_MS'],
    flag: '--upload-timeout-ms',
    limit: true,
    kind: 'duration',
    default: 60_000,
    min: 1,
    max: MAX_UPLOAD_TIMEOUT_MS,
  },
  // Stops header floods. Bun itself refuses more than 64 KiB with a bare 431 (see README);
  // below that, this limit answers in problem+json.
  maxHeaderBytes: {
    env: ['IMGAPI_MAX_HEADER_BYTES'],
    flag: '--max-header-bytes',
    kind: 'integer',
    default: 16_384,
    min: 1024,
    max: BUN_MAX_HEADER_BYTES,
  },
  // What the memory budgets below are carved from.
  memoryLimitBytes: {
    env: ['IMGAPI_MEMORY_LIMIT_BYTES'],
    flag: '--memory-limit-bytes',
    kind: 'integer',
    default: 0,
    min: 0,
  },
  // Stops upload floods: 200 concurrent 30 MiB uploads once took the process to 6 GB. Each
  // compress request reserves its Content-Length (or the upload limit when chunked) before
  // its body is read; over the budget it gets 503 at once.
  uploadBudgetBytes: {
    env: ['IMGAPI_UPLOAD_BUDGET_BYTES'],
    flag: '--upload-budget-bytes',
    kind: 'integer',
    default: 0,
    min: 0,
  },
  // Stops decode floods: each job reserves the memory its decode and encode need (estimated
  // from the header and the plan) and waits until it fits; a job that can never fit is refused.
  decodeBudgetBytes: {
    env: ['IMGAPI_DECODE_BUDGET_BYTES'],
    flag: '--decode-budget-bytes',
    kind: 'integer',
    default: 0,
    min: 0,
  },
  // Estimates err, and a hostile image can make a codec allocate far past its: a worker whose
  // resident memory grows past this (beyond its idle size) is killed, read every 50 ms. 0: the
  // job's reservation plus an equal share of the unreserved decode budget.
  maxWorkerMemoryBytes: {
    env: ['IMGAPI_MAX_WORKER_MEMORY_BYTES'],
    flag: '--max-worker-memory-bytes',
    kind: 'integer',
    default: 0,
    min: 0,
  },
  // Lets a load balancer notice the drain (health turns 503) before the listener closes, so
  // no request is sent to a closed port.
  drainDelayMs: {
    env: ['IMGAPI_DRAIN_DELAY_MS'],
    flag: '--drain-delay-ms',
    kind: 'duration',
    default: 5_000,
    min: 0,
  },
  shutdownTimeoutMs: {
    env: ['IMGAPI_SHUTDOWN_TIMEOUT_MS'],
    flag: '--shutdown-timeout-ms',
    kind: 'duration',
    default: 30_000,
    min: 0,
  },
  // Stops one client from using the service for everyone: requests per window, per API key or
  // per client address. Off by default: a typical caller is one backend sending batches.
  rateLimit: {
    env: ['IMGAPI_RATE_LIMIT'],
    flag: '--rate-limit',
    limit: true,
    kind: 'integer',
    default: 0,
    min: 0,
    max: 1_000_000,
  },
  rateWindowMs: {
    env: ['IMGAPI_RATE_WINDOW_MS'],
    flag: '--rate-window-ms',
    kind: 'duration',
    default: 60_000,
    min: 1000,
    max: 86_400_000,
  },
  rateBurst: {
    env: ['IMGAPI_RATE_BURST'],
    flag: '--rate-burst',
    kind: 'integer',
    default: 0,
    min: 0,
    max: 1_000_000,
  },
  // Stops a client from spoofing its address: X-Forwarded-For and Forwarded are believed only
  // for this many proxies in front of imgapi, and not at all by default.
  trustProxy: {
    env: ['IMGAPI_TRUST_PROXY'],
    flag: '--trust-proxy',
    kind: 'integer',
    default: 0,
    min: 0,
    max: 10,
  },
  // Stops one client from filling the whole queue: its compress requests in progress at once.
  maxClientJobs: {
    env: ['IMGAPI_MAX_CLIENT_JOBS'],
    flag: '--max-client-jobs',
    limit: true,
    kind: 'integer',
    default: 0,
    min: 0,
    max: 100_000,
  },
  apiKeysFile: {
    env: ['IMGAPI_API_KEYS_FILE'],
    flag: '--api-keys-file',
    kind: 'path',
    default: '',
  },
  apiKeys: {
    env: ['IMGAPI_API_KEYS'],
    flag: '--api-keys',
    kind: 'string',
    default: '',
    secret: true,
  },
  formatsRequireKey: {
    env: ['IMGAPI_FORMATS_REQUIRE_KEY'],
    flag: '--formats-require-key',
    kind: 'boolean',
    default: false,
  },
  redisUrl: {
    env: ['IMGAPI_REDIS_URL'],
    flag: '--redis-url',
    kind: 'url',
    default: '',
    protocols: ['redis:', 'rediss:'],
    secret: true,
    private: true,
  },
  redisPrefix: {
    env: ['IMGAPI_REDIS_PREFIX'],
    flag: '--redis-prefix',
    kind: 'string',
    default: 'imgapi:',
    private: true,
  },
  // A slow Redis must not make every request slow: past this, the call counts as failed.
  redisTimeoutMs: {
    env: ['IMGAPI_REDIS_TIMEOUT_MS'],
    flag: '--redis-timeout-ms',
    kind: 'duration',
    default: 250,
    min: 10,
    max: 10_000,
    private: true,
  },
  rateLimitFail: {
    env: ['IMGAPI_RATE_LIMIT_FAIL'],
    flag: '--rate-limit-fail',
    kind: 'enum',
    default: 'open',
    values: ['open', 'closed'],
  },
  metricsKey: {
    env: ['IMGAPI_METRICS_KEY'],
    flag: '--metrics-key',
    kind: 'string',
    default: '',
    secret: true,
    private: true,
  },
  corsOrigins: {
    env: ['IMGAPI_CORS_ORIGINS'],
    flag: '--cors-origins',
    private: true,
    kind: 'string',
    default: '*',
  },
  // Stops the service from being turned into a door into the network it runs in (SSRF): a
  // request's url is fetched only from the public internet (and what IMGAPI_URL_ALLOW adds),
  // only from the list, or not at all.
  urlSources: {
    env: ['IMGAPI_URL_SOURCES'],
    flag: '--url-sources',
    kind: 'enum',
    default: 'public',
    values: ['off', 'public', 'allowlist'],
  },
  // Lets in what the public-only rule keeps out, such as an internal image server: host names,
  // suffixes (.example.com) and CIDRs, comma-separated; each on every port.
  urlAllow: {
    env: ['IMGAPI_URL_ALLOW'],
    flag: '--url-allow',
    private: true,
    kind: 'string',
    default: '',
  },
  // Stops a slow origin from holding a worker's place in the queue: the whole image must arrive in this.
  urlTimeoutMs: {
    env: ['IMGAPI_URL_TIMEOUT_MS'],
    flag: '--url-timeout-ms',
    kind: 'duration',
    default: 20_000,
    min: 1,
    max: MAX_UPLOAD_TIMEOUT_MS,
  },
  // Stops a flood of URL requests from holding sockets open, in all and towards one host (an
  // origin turned into a target).
  urlMaxFetches: {
    env: ['IMGAPI_URL_MAX_FETCHES'],
    flag: '--url-max-fetches',
    kind: 'integer',
    default: 32,
    min: 1,
    max: 10_000,
  },
  urlMaxFetchesPerHost: {
    env: ['IMGAPI_URL_MAX_FETCHES_PER_HOST'],
    flag: '--url-max-fetches-per-host',
    kind: 'integer',
    default: 8,
    min: 1,
    max: 10_000,
  },
  // Stops s3:// sources from reading back every object the server can reach: the
  // s3://bucket/prefix/ places a request's url may read, a list of its own (a write list must
  // not double as a read list); empty turns s3:// sources off. Operator-only, as the store list.
  urlS3: {
    env: ['IMGAPI_URL_S3'],
    flag: '--url-s3',
    private: true,
    kind: 'string',
    default: '',
  },
  // Stops a request from writing anywhere else: the s3://bucket/prefix/ destinations a request's
  // store may name, comma-separated; empty turns store off. Operator-only: bucket names are not
  // the docs site's to publish.
  store: {
    env: ['IMGAPI_STORE'],
    flag: '--store',
    private: true,
    kind: 'string',
    default: '',
  },
  // The standard AWS variables, read here rather than by Bun's S3Client, which ignores
  // AWS_ENDPOINT_URL (a write would head for real AWS with these keys) and picks up S3_* on its
  // own: store/ passes each one explicitly.
  storeEndpoint: {
    env: ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL'],
    flag: '--store-endpoint',
    private: true,
    kind: 'url',
    default: '',
    protocols: ['http:', 'https:'],
  },
  storeRegion: {
    env: ['AWS_REGION', 'AWS_DEFAULT_REGION'],
    flag: '--store-region',
    private: true,
    kind: 'string',
    default: '',
  },
  storeAccessKeyId: {
    env: ['AWS_ACCESS_KEY_ID'],
    flag: '--store-access-key-id',
    private: true,
    kind: 'string',
    default: '',
    secret: true,
  },
  storeSecretAccessKey: {
    env: ['AWS_SECRET_ACCESS_KEY'],
    flag: '--store-secret-access-key',
    private: true,
    kind: 'string',
    default: '',
    secret: true,
  },
  // A mounted secret, kept off the environment and the command line.
  storeSecretAccessKeyFile: {
    env: ['AWS_SECRET_ACCESS_KEY_FILE'],
    flag: '--store-secret-access-key-file',
    private: true,
    kind: 'path',
    default: '',
  },
  storeSessionToken: {
    env: ['AWS_SESSION_TOKEN'],
    flag: '--store-session-token',
    private: true,
    kind: 'string',
    default: '',
    secret: true,
  },
  // MinIO and Ceph serve buckets as paths (endpoint/bucket/key) unless set up for names.
  storeVirtualHosted: {
    env: ['IMGAPI_STORE_VIRTUAL_HOSTED'],
    flag: '--store-virtual-hosted',
    private: true,
    kind: 'boolean',
    default: false,
  },
  // Keys carry the output's hash where they should: such an object never changes.
  storeCacheControl: {
    env: ['IMGAPI_STORE_CACHE_CONTROL'],
    flag: '--store-cache-control',
    private: true,
    kind: 'string',
    default: 'public, max-age=31536000, immutable',
  },
  // Stops a slow or hung storage from holding a request (and its memory) for ever: each PUT.
  storeTimeoutMs: {
    env: ['IMGAPI_STORE_TIMEOUT_MS'],
    flag: '--store-timeout-ms',
    private: true,
    kind: 'duration',
    default: 30_000,
    min: 1,
    max: 600_000,
  },
  // The web tools are clients of this API like any other, so turning them off removes no
  // capability: it is for operators who publish only the API.
  tools: {
    env: ['IMGAPI_TOOLS'],
    flag: '--tools',
    kind: 'boolean',
    default: true,
  },
  libDir: {
    env: ['IMGAPI_LIB_DIR'],
    flag: '--lib-dir',
    private: true,
    kind: 'string',
    default: '',
  },
  logLevel: {
    env: ['IMGAPI_LOG_LEVEL'],
    flag: '--log-level',
    private: true,
    kind: 'enum',
    default: 'info',
    values: ['debug', 'info', 'warn', 'error', 'silent'],
  },
} as const satisfies Record<keyof typeof en.settings, SettingSpec>

export type SettingName = keyof typeof SETTINGS
