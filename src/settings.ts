import { availableParallelism } from 'node:os'

/**
 * Every setting of the service, declared once. `loadConfig` parses and validates them,
 * `--help` and the README's configuration table are generated from this list.
 */
export interface SettingSpec {
  readonly env: readonly string[]
  readonly flag: string
  readonly kind: 'integer' | 'string' | 'enum'
  readonly default: number | string
  readonly min?: number
  readonly max?: number
  readonly values?: readonly string[]
  readonly description: string
}

const MIB = 1024 * 1024

export const SETTINGS = {
  port: {
    env: ['IMGAPI_PORT', 'PORT'],
    flag: '--port',
    kind: 'integer',
    default: 3000,
    min: 0,
    max: 65535,
    description: 'TCP port to listen on (0 picks a free port).',
  },
  host: {
    env: ['IMGAPI_HOST'],
    flag: '--host',
    kind: 'string',
    default: '0.0.0.0',
    description: 'Address to bind; use 127.0.0.1 to accept local connections only.',
  },
  // Stops a client from exhausting memory or disk with one huge upload.
  maxUploadBytes: {
    env: ['IMGAPI_MAX_UPLOAD_BYTES'],
    flag: '--max-upload-bytes',
    kind: 'integer',
    default: 32 * MIB,
    min: 1,
    max: 4096 * MIB,
    description: 'Largest accepted image in bytes; larger bodies get 413 PAYLOAD_TOO_LARGE.',
  },
  // Stops decompression bombs: a small file that declares billions of pixels is refused
  // from its header, before a single pixel is decoded or any memory is allocated for it.
  maxInputPixels: {
    env: ['IMGAPI_MAX_INPUT_PIXELS'],
    flag: '--max-input-pixels',
    kind: 'integer',
    default: 100_000_000,
    min: 1,
    description:
      'Largest accepted input in pixels (width x height x frames); larger gets 422 IMAGE_TOO_LARGE.',
  },
  // Stops a tiny input with width=60000 from being enlarged into a huge allocation.
  maxOutputDimension: {
    env: ['IMGAPI_MAX_OUTPUT_DIMENSION'],
    flag: '--max-output-dimension',
    kind: 'integer',
    default: 16383,
    min: 1,
    max: 65535,
    description: 'Largest width or height of an output image, and of the width/height options.',
  },
  // Stops an animation of thousands of small frames from costing as much as a huge still.
  maxFrames: {
    env: ['IMGAPI_MAX_FRAMES'],
    flag: '--max-frames',
    kind: 'integer',
    default: 1000,
    min: 1,
    description: 'Most frames accepted in an animated input; more gets 422 IMAGE_TOO_LARGE.',
  },
  // Bounds CPU and memory: at most this many images are decoded and encoded at once.
  workers: {
    env: ['IMGAPI_WORKERS'],
    flag: '--workers',
    kind: 'integer',
    default: availableParallelism(),
    min: 1,
    max: 1024,
    description: 'Images processed at the same time (default: the number of CPUs).',
  },
  // Bounds memory held by waiting uploads, and latency: beyond it clients get 503 at once.
  queueLength: {
    env: ['IMGAPI_QUEUE_LENGTH'],
    flag: '--queue-length',
    kind: 'integer',
    default: 64,
    min: 0,
    max: 100_000,
    description: 'Jobs that may wait for a worker; beyond it requests get 503 OVERLOADED with Retry-After.',
  },
  // Stops one pathological image from holding a worker forever.
  jobTimeoutMs: {
    env: ['IMGAPI_JOB_TIMEOUT_MS'],
    flag: '--job-timeout-ms',
    kind: 'integer',
    default: 30_000,
    min: 1,
    description: 'Longest time one image may take, waiting included; then 503 PROCESSING_TIMEOUT.',
  },
  shutdownTimeoutMs: {
    env: ['IMGAPI_SHUTDOWN_TIMEOUT_MS'],
    flag: '--shutdown-timeout-ms',
    kind: 'integer',
    default: 30_000,
    min: 0,
    description: 'On SIGTERM/SIGINT, how long to wait for in-flight requests before exiting anyway.',
  },
  corsOrigins: {
    env: ['IMGAPI_CORS_ORIGINS'],
    flag: '--cors-origins',
    kind: 'string',
    default: '*',
    description:
      'Origins allowed to call the API from a browser: "*" (any), a comma-separated list of origins, or "none".',
  },
  libDir: {
    env: ['IMGAPI_LIB_DIR'],
    flag: '--lib-dir',
    kind: 'string',
    default: '',
    description:
      'Private directory where the single executable unpacks its libvips library (default: $XDG_CACHE_HOME/imgapi or ~/.cache/imgapi).',
  },
  logLevel: {
    env: ['IMGAPI_LOG_LEVEL'],
    flag: '--log-level',
    kind: 'enum',
    default: 'info',
    values: ['debug', 'info', 'warn', 'error', 'silent'],
    description: 'Least severe log line written to stdout (JSON lines).',
  },
} as const satisfies Record<string, SettingSpec>

export type SettingName = keyof typeof SETTINGS
