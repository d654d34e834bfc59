/*
 * What a memory measurement is made of: the input it starts from and the job the child runs.
 * Both the cases (inputs.ts) and their runner (memory.ts) speak of these, so they live below
 * both.
 */
import type { MemoryJob } from './child.ts'

export interface MemoryInput {
  readonly label: string
  readonly path: string
  /** All frames together. */
  readonly megapixels: number
}

export interface MemoryCase {
  readonly pipeline: string
  readonly input: MemoryInput
  readonly job: MemoryJob
  /** CPU seconds expected from the timing grid, so that the slow encodes stay within the budget. */
  readonly predictedSeconds: number
}
