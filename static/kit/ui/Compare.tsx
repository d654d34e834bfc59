import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { JobResult } from '../batch/engine.ts'
import { env } from '../env.ts'
import { CompareFacts, type SideFacts } from './CompareFacts.tsx'
import { usePan } from './use-pan.ts'
import { usePreview, type Preview } from './use-preview.ts'

export interface Side {
  readonly blob: Blob
  readonly format: string
  readonly width?: number
  readonly height?: number
}

interface Props {
  readonly before: Side
  readonly after: Side
  readonly quality?: string | null
  readonly similarity?: string | null
}

const ZOOMS = [1, 1.5, 2, 3, 4, 6, 8]
/** The view's height at most, as compare.css sets it (max-block-size). */
const VIEW_HEIGHT_VH = 70
/** The stage's shape, and its width at "Fit": no wider than the view, no taller than its 70vh. */
export function stageBox(width?: number, height?: number): { ratio: string; fit: string } {
  if (!width || !height) return { ratio: '3 / 2', fit: '100%' }
  return {
    ratio: `${width} / ${height}`,
    fit: `min(100%, ${((VIEW_HEIGHT_VH * width) / height).toFixed(2)}vh)`,
  }
}

const clamp = (value: number) => Math.min(100, Math.max(0, value))

/**
 * Before and after over each other, split by a divider: a WAI-ARIA slider (arrow keys, Home,
 * End), moved by a click anywhere on the picture or by buttons as well as by dragging its handle
 * (WCAG 2.5.7). Dragging the picture itself pans it when zoomed in. Both pictures sit in one
 * stage, so zoom and pan can never fall out of step. Never mirrored: before is on the left in
 * every language.
 */
export function Compare({ before, after, quality, similarity }: Props) {
  const { t, numbers } = env()
  const [position, setPosition] = useState(50)
  const [zoom, setZoom] = useState(0)
  const view = useRef<HTMLDivElement>(null)
  const stage = useRef<HTMLDivElement>(null)
  const beforePicture = usePreview(before.blob)
  const afterPicture = usePreview(after.blob)
  const scale = ZOOMS[zoom]!
  const pan = usePan(view)

  // Zooming keeps the middle of what was shown in the middle.
  const centre = useRef({ x: 0.5, y: 0.5 })
  useLayoutEffect(() => {
    const box = view.current
    if (!box) return
    box.scrollLeft = centre.current.x * box.scrollWidth - box.clientWidth / 2
    box.scrollTop = centre.current.y * box.scrollHeight - box.clientHeight / 2
  }, [scale])
  const zoomTo = (next: number) => {
    const box = view.current
    if (box)
      centre.current = {
        x: (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth,
        y: (box.scrollTop + box.clientHeight / 2) / box.scrollHeight,
      }
    setZoom(Math.min(ZOOMS.length - 1, Math.max(0, next)))
  }

  const fromPointer = (clientX: number) => {
    const box = stage.current?.getBoundingClientRect()
    if (box) setPosition(clamp(Math.round(((clientX - box.left) / box.width) * 1000) / 10))
  }
  const onKey = (event: KeyboardEvent) => {
    const step = event.shiftKey ? 10 : 1
    const moves: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowDown: position - step,
      ArrowRight: position + step,
      ArrowUp: position + step,
      PageDown: position - 10,
      PageUp: position + 10,
      Home: 0,
      End: 100,
    }
    if (!(event.key in moves)) return
    event.preventDefault()
    setPosition(clamp(moves[event.key]!))
  }
  const onDrag = (event: PointerEvent) => {
    const handle = event.currentTarget as HTMLElement
    handle.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => fromPointer(e.clientX)
    const stop = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', stop)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', stop)
    event.stopPropagation()
  }

  const { ratio, fit } = stageBox(
    after.width || afterPicture.width || beforePicture.width,
    after.height || afterPicture.height || beforePicture.height,
  )
  return (
    <div class="compare" dir="ltr">
      <div class="compare-view" ref={view} tabIndex={0} aria-label={t('common.compareView')}>
        <div
          class={`compare-stage${zoom > 0 ? ' zoomed' : ''}`}
          ref={stage}
          style={{ width: `calc(${scale} * ${fit})`, aspectRatio: ratio }}
          onPointerDown={pan.onPointerDown}
          onClick={(event) => pan.dragged() || fromPointer(event.clientX)}
        >
          <Picture preview={beforePicture} alt={t('common.before')} />
          <div class="compare-after" style={{ clipPath: `inset(0 0 0 ${position}%)` }}>
            <Picture preview={afterPicture} alt={t('common.after')} />
          </div>
          <span class="compare-label compare-label-before" aria-hidden="true">
            {t('common.before')}
          </span>
          <span class="compare-label compare-label-after" aria-hidden="true">
            {t('common.after')}
          </span>
          <div
            class="compare-divider"
            style={{ left: `${position}%` }}
            role="slider"
            tabIndex={0}
            aria-label={t('common.compareSlider')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={position}
            aria-valuetext={t('common.compareValue', { percent: numbers.percent(position / 100) })}
            onKeyDown={onKey}
            onPointerDown={onDrag}
            onClick={(event) => event.stopPropagation()}
          >
            <span class="compare-grip" aria-hidden="true" />
          </div>
        </div>
      </div>
      <div class="compare-controls" dir={document.documentElement.dir as 'ltr' | 'rtl'}>
        {/* In the pictures' order in every language: before on the left. */}
        <div class="button-group" role="group" dir="ltr" aria-label={t('common.compareShow')}>
          <button type="button" aria-pressed={position === 100} onClick={() => setPosition(100)}>
            {t('common.showBefore')}
          </button>
          <button type="button" aria-pressed={position === 50} onClick={() => setPosition(50)}>
            {t('common.showBoth')}
          </button>
          <button type="button" aria-pressed={position === 0} onClick={() => setPosition(0)}>
            {t('common.showAfter')}
          </button>
        </div>
        <div class="button-group" role="group" aria-label={t('common.zoom')}>
          <button
            type="button"
            onClick={() => zoomTo(zoom - 1)}
            disabled={zoom === 0}
            aria-label={t('common.zoomOut')}
          >
            −
          </button>
          <output class="zoom-level">{numbers.percent(scale)}</output>
          <button
            type="button"
            onClick={() => zoomTo(zoom + 1)}
            disabled={zoom === ZOOMS.length - 1}
            aria-label={t('common.zoomIn')}
          >
            +
          </button>
          <button type="button" onClick={() => zoomTo(0)} disabled={zoom === 0}>
            {t('common.zoomFit')}
          </button>
        </div>
      </div>
      <CompareFacts
        before={sideFacts(before, beforePicture)}
        after={sideFacts(after, afterPicture)}
        quality={quality}
        similarity={similarity}
      />
    </div>
  )
}

/** A job's result against what was sent: the headers' facts (size, quality, similarity) shown. */
export function CompareResult({ before, result }: { before: Side; result: JobResult }) {
  const after = { blob: result.blob, format: result.format, width: result.width, height: result.height }
  return <Compare before={before} after={after} quality={result.quality} similarity={result.similarity} />
}

/** A side's facts: its size as the server said it, else as the picture shows it (not a conversion's). */
export function sideFacts(side: Side, picture: Preview): SideFacts {
  const shown = !picture.converted
  return {
    bytes: side.blob.size,
    format: side.format,
    width: side.width ?? (shown ? picture.width : undefined),
    height: side.height ?? (shown ? picture.height : undefined),
    converted: picture.converted,
  }
}

export function Picture({ preview, alt }: { preview: Preview; alt: string }) {
  if (preview.url) return <img src={preview.url} alt={alt} draggable={false} />
  return <div class="compare-missing">{preview.failed ? env().t('common.cannotShow') : ''}</div>
}
