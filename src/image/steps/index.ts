/*
 * The pipeline's steps, in the order that is the contract, and the encoders the last step
 * runs. The only file of this folder that others import.
 */
import type { PipelineStep, StepFacts } from './context.ts'
import { adjust } from './adjust.ts'
import { crop } from './crop.ts'
import { encode } from './encode.ts'
import { flatten } from './flatten.ts'
import { greyscale } from './greyscale.ts'
import { metadata } from './metadata.ts'
import { orient } from './orient.ts'
import { overlay } from './overlay.ts'
import { pad } from './pad.ts'
import { radius } from './radius.ts'
import { resize } from './resize.ts'
import { rotate } from './rotate.ts'
import { trim } from './trim.ts'
import { workingSpace } from './working-space.ts'

/**
 * The steps that change pixels, in the order that is the contract: orient → crop → trim →
 * rotate/flip → resize (fit, position, dpr) → pad → adjust → overlay → rounded corners → flatten.
 */
export const TRANSFORM: readonly PipelineStep[] = [
  workingSpace,
  orient,
  crop,
  trim,
  rotate,
  resize,
  pad,
  greyscale,
  adjust,
  overlay,
  radius,
  flatten,
]

/** The whole pipeline: transform, choose what metadata to keep, encode last. */
export const PIPELINE: readonly PipelineStep[] = [...TRANSFORM, metadata, encode]

/** Whether a step the plan asks for changes pixels, so the input itself cannot answer. */
export function changesPixels(facts: StepFacts): boolean {
  return PIPELINE.some((step) => step.changesPixels && step.applies(facts))
}

export { metadata } from './metadata.ts'
export { runSteps, type StepInputs } from './run.ts'
export { ENCODERS, jpegOptions } from './encoders.ts'
export { PACKERS } from './pack.ts'
export { readIco } from './ico.ts'
export type { PipelineStep, StepContext, StepFacts } from './context.ts'
