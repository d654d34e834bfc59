/*
 * The order in which sharp runs the operations of one chain (src/pipeline.cc of sharp 0.35),
 * whatever order they were called in. `input` and `output` are settings, not operations: they
 * never force a render. A step configured after another whose operation sharp runs later (or
 * in the same place, which holds one value) needs the pixels rendered in between, unless the
 * pair gives the same image in either order (same-either-way.ts).
 */
export const SHARP_ORDER = [
  'input',
  'autoOrientBefore',
  'rotateBefore',
  'trim',
  'extractBefore',
  'flatten',
  'greyscale',
  'resize',
  'autoOrientAfter',
  'flipAfter',
  'rotateRightAngle',
  'crop',
  'rotateAngle',
  'extractAfter',
  'extend',
  'blur',
  'modulate',
  'sharpen',
  'composite',
  'linear',
  'normalise',
  'output',
] as const

export type SharpStage = (typeof SHARP_ORDER)[number]

export const stageIndex = (stage: SharpStage) => SHARP_ORDER.indexOf(stage)

/** Settings rather than operations: any number of them share a chain. */
export const isSetting = (stage: SharpStage) => stage === 'input' || stage === 'output'
