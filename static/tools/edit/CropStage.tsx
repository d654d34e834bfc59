import { useEffect, useRef, useState } from 'preact/hooks'
import { env } from '../../kit/env.ts'
import { Live, NumberField } from '../../kit/ui/fields.tsx'
import {
  SMALLEST,
  clampRect,
  fromPoints,
  isWhole,
  moveRect,
  nudge,
  quarter,
  resizeRect,
  toOriginal,
  toView,
  viewSize,
  wholeOf,
  withField,
  type Edges,
  type Rect,
  type Size,
  type View,
} from './geometry.ts'

/** The picture on the stage is drawn at most this many pixels across: enough for any screen. */
const STAGE_PIXELS = 1600

/** The eight handles: corners and edges, each naming the edges it drags. */
const HANDLES: readonly Edges[] = [
  { x: -1, y: -1 },
  { x: 0, y: -1 },
  { x: 1, y: -1 },
  { x: 1, y: 0 },
  { x: 1, y: 1 },
  { x: 0, y: 1 },
  { x: -1, y: 1 },
  { x: -1, y: 0 },
]

interface Props {
  readonly image: HTMLImageElement
  readonly size: Size
  readonly view: View
  readonly crop?: Rect
  readonly ratio?: number
  /** The crop in the original's pixels, or undefined for the whole image. */
  onCrop(crop: Rect | undefined): void
}

/** The original as the view shows it: mirrored, then turned by quarter turns, drawn once per change. */
function useDrawn(canvas: HTMLCanvasElement | null, image: HTMLImageElement, size: Size, view: View) {
  useEffect(() => {
    if (!canvas) return
    const shown = viewSize(size, view)
    const scale = Math.min(1, STAGE_PIXELS / Math.max(shown.width, shown.height))
    canvas.width = Math.max(1, Math.round(shown.width * scale))
    canvas.height = Math.max(1, Math.round(shown.height * scale))
    const context = canvas.getContext('2d')!
    context.setTransform(1, 0, 0, 1, 0, 0)
    context.clearRect(0, 0, canvas.width, canvas.height)
    context.translate(canvas.width / 2, canvas.height / 2)
    context.rotate((quarter(view.turns) * Math.PI) / 2)
    context.scale(view.flop ? -1 : 1, view.flip ? -1 : 1)
    const [w, h] = [size.width * scale, size.height * scale]
    context.drawImage(image, -w / 2, -h / 2, w, h)
  }, [canvas, image, size.width, size.height, view.turns, view.flip, view.flop])
}

/**
 * The crop box over the picture: drag it, drag a handle, or draw a new one; or, without a
 * pointer (WCAG 2.5.7), focus it and use the arrow keys (Shift resizes), or type its numbers.
 * Always left to right: the picture is never mirrored for a right-to-left language.
 */
export function CropStage(props: Props) {
  const { t, numbers } = env()
  const { size, view, ratio } = props
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const stage = useRef<HTMLDivElement>(null)
  useDrawn(canvas, props.image, size, view)
  const bounds = viewSize(size, view)
  const box = props.crop ? toView(props.crop, size, view) : wholeOf(bounds)
  const commit = (rect: Rect) => {
    const inView = clampRect(rect, bounds)
    props.onCrop(isWhole(inView, bounds) ? undefined : toOriginal(inView, size, view))
  }
  const describe = (rect: Rect) =>
    t('edit.cropValue', {
      width: numbers.integer(rect.width),
      height: numbers.integer(rect.height),
      left: numbers.integer(rect.left),
      top: numbers.integer(rect.top),
    })

  const pointAt = (event: PointerEvent): [number, number] => {
    const area = stage.current!.getBoundingClientRect()
    return [
      ((event.clientX - area.left) / area.width) * bounds.width,
      ((event.clientY - area.top) / area.height) * bounds.height,
    ]
  }
  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return
    const target = event.target as HTMLElement
    const start = pointAt(event)
    const from = box
    const handle = target.dataset.handle
    const edges = handle === undefined ? undefined : HANDLES[Number(handle)]
    const moving = !edges && target.classList.contains('crop-box')
    stage.current!.setPointerCapture(event.pointerId)
    event.preventDefault()
    const move = (e: PointerEvent) => {
      const [x, y] = pointAt(e)
      const [dx, dy] = [x - start[0], y - start[1]]
      if (edges) commit(resizeRect(from, edges, dx, dy, bounds, ratio))
      else if (moving) commit(moveRect(from, dx, dy, bounds))
      else if (Math.hypot(dx, dy) > 4) commit(fromPoints(start, [x, y], bounds, ratio))
    }
    const stop = () => {
      stage.current?.removeEventListener('pointermove', move)
      stage.current?.removeEventListener('pointerup', stop)
      stage.current?.removeEventListener('pointercancel', stop)
    }
    stage.current!.addEventListener('pointermove', move)
    stage.current!.addEventListener('pointerup', stop)
    stage.current!.addEventListener('pointercancel', stop)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const step = Math.max(1, Math.round(Math.max(bounds.width, bounds.height) / 100))
    const next = nudge(box, event.key, event.shiftKey, step, bounds, ratio)
    if (!next) return
    event.preventDefault()
    commit(next)
    setAnnouncement(describe(clampRect(next, bounds)))
  }
  const percent = (value: number, of: number) => `${(value / of) * 100}%`
  const field = (name: keyof Rect, max: number) => (
    <NumberField
      key={name}
      id={`crop-${name}`}
      label={t(`edit.crop.${name}`)}
      unit="px"
      range={{ min: SMALLEST[name], max }}
      value={box[name]}
      onChange={(value) => value !== undefined && commit(withField(box, name, value, bounds, ratio))}
    />
  )
  return (
    <div class="crop">
      <div
        class="crop-stage"
        dir="ltr"
        ref={stage}
        style={{
          aspectRatio: `${bounds.width} / ${bounds.height}`,
          '--stage-ratio': bounds.width / bounds.height,
        }}
        onPointerDown={onPointerDown}
      >
        <canvas ref={setCanvas} class="crop-picture" aria-hidden="true" />
        <div
          class="crop-box"
          role="group"
          tabIndex={0}
          aria-roledescription={t('edit.cropBox')}
          aria-label={describe(box)}
          aria-describedby="crop-keys"
          style={{
            left: percent(box.left, bounds.width),
            top: percent(box.top, bounds.height),
            width: percent(box.width, bounds.width),
            height: percent(box.height, bounds.height),
          }}
          onKeyDown={onKeyDown}
        >
          {HANDLES.map((edges, i) => (
            <span
              key={i}
              class={`crop-handle x${edges.x} y${edges.y}`}
              style={{ '--along-x': (edges.x + 1) / 2, '--along-y': (edges.y + 1) / 2 }}
              data-handle={i}
              aria-hidden="true"
            />
          ))}
        </div>
      </div>
      <p class="hint" id="crop-keys">
        {t('edit.cropKeys')}
      </p>
      <div class="crop-numbers">
        {field('left', bounds.width - 1)}
        {field('top', bounds.height - 1)}
        {field('width', bounds.width)}
        {field('height', bounds.height)}
      </div>
      <Live text={announcement} />
    </div>
  )
}
