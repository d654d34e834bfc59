import type { AccessControl } from './access/access-control.ts'
import type { Config } from './config.ts'
import type { ClientJobs } from './http/client-jobs.ts'
import type { CorsPolicy } from './http/cors.ts'
import type { UploadBudget } from './http/upload-budget.ts'
import type { CodecMonitor } from './image/self-test.ts'
import type { JobQueue } from './image/queue.ts'
import type { JobExecutor } from './image/executor.ts'
import type { Lifecycle } from './lifecycle.ts'
import type { Logger } from './log.ts'
import type { MemoryPlan } from './memory-plan.ts'
import type { Metrics } from './metrics/metrics.ts'
import type { UrlSources } from './source/index.ts'
import type { Store } from './store/index.ts'

/** What the routes share; built once by createApp, replaceable in tests. */
export interface AppContext {
  readonly config: Config
  readonly memory: MemoryPlan
  readonly queue: JobQueue
  /** Where jobs' pixels are worked: worker processes for a listening server, this process in tests. */
  readonly executor: JobExecutor
  readonly uploads: UploadBudget
  readonly lifecycle: Lifecycle
  readonly logger: Logger
  readonly cors: CorsPolicy
  readonly codecs: CodecMonitor
  readonly access: AccessControl
  readonly clientJobs: ClientJobs
  readonly metrics: Metrics
  /** The URLs a request's `url` may name, and the fetches in flight. */
  readonly urlSources: UrlSources
  /** Where a request's store writes; undefined when IMGAPI_STORE is empty. */
  readonly store: Store | undefined
}
