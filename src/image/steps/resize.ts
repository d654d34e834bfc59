import type { PipelineStep } from './context.ts'

export const resize: PipelineStep = ({ image, plan }) => {
  if (!plan.resize) return
  const { width, height, fit, withoutEnlargement } = plan.resize
  image.resize({ width, height, fit, withoutEnlargement, background: plan.background })
}
