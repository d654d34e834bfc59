/* Every scenario, in the order they run. */
import type { Scenario } from '../scenario.ts'
import { avifWorst } from './avif-worst.ts'
import { enlargement } from './enlargement.ts'
import { hostileHttp } from './hostile-http.ts'
import { limitedLoad } from './limited-load.ts'
import { mixedLoad } from './mixed-load.ts'
import { parallelUploads } from './parallel-uploads.ts'
import { queueFull } from './queue-full.ts'
import { sigterm } from './sigterm.ts'
import { slowClients } from './slow-clients.ts'

export const SCENARIOS: readonly Scenario[] = [
  hostileHttp,
  slowClients,
  parallelUploads,
  enlargement,
  avifWorst,
  queueFull,
  mixedLoad,
  limitedLoad,
  sigterm,
]
