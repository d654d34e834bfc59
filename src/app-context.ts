import type { Config } from './config.ts'
import type { CorsPolicy } from './http/cors.ts'
import type { CodecCheck } from './image/self-test.ts'
import type { JobQueue } from './image/queue.ts'
import type { Lifecycle } from './lifecycle.ts'
import type { Logger } from './log.ts'

/** What the routes share; built once by createApp, replaceable in tests. */
export interface AppContext {
  readonly config: Config
  readonly queue: JobQueue
  readonly lifecycle: Lifecycle
  readonly logger: Logger
  readonly cors: CorsPolicy
  readonly codecCheck: () => Promise<CodecCheck>
}
