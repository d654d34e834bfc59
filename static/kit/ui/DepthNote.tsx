import { useEffect, useState } from 'preact/hooks'
import type { Job } from '../batch/engine.ts'
import { PALETTE_COLOURS, pngDepth } from '../batch/png-depth.ts'
import { env } from '../env.ts'

/**
 * A PNG that came back with fewer bits per channel than it was sent with (the API writes 8, and
 * a palette of at most 256 colours unless lossless): said on its card, since the sizes alone do
 * not show it.
 */
export function DepthNote({ job }: { job: Job }) {
  const { t } = env()
  const [text, setText] = useState('')
  const result = job.result
  useEffect(() => {
    setText('')
    // An image the server fetched from its address: this page has only the result's bytes.
    if (!result || !job.file || result.format !== 'png' || result.originalFormat !== 'png') return
    let current = true
    void Promise.all([pngDepth(job.file), pngDepth(result.blob)]).then(([before, after]) => {
      if (!current || !before || !after || after.bits >= before.bits) return
      const facts = { from: before.bits, to: after.bits, colours: PALETTE_COLOURS }
      setText(t(after.palette ? 'common.depthPalette' : 'common.depthReduced', facts))
    })
    return () => {
      current = false
    }
  }, [result])
  return text ? <p class="hint depth-note">{text}</p> : null
}
