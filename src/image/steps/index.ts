/*
 * The pipeline's steps, in the order that is the contract, and the encoders the last step
 * runs. The only file of this folder that others import.
 */
import type { PipelineStep } from './context.ts'
import { encode } from './encode.ts'
import { flatten } from './flatten.ts'
import { metadata } from './metadata.ts'
import { orient } from './orient.ts'
import { resize } from './resize.ts'
import { workingSpace } from './working-space.ts'

/** The steps that change pixels, in the order that is the contract: rotate before sizing, flatten after. */
export const TRANSFORM: readonly PipelineStep[] = [workingSpace, orient, resize, flatten]

/** The whole one-pass pipeline: transform, choose what metadata to keep, encode last. */
export const PIPELINE: readonly PipelineStep[] = [...TRANSFORM, metadata, encode]

export { metadata } from './metadata.ts'
export { ENCODERS, jpegOptions } from './encoders.ts'
export type { PipelineStep, StepContext } from './context.ts'
