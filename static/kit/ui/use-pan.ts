import type { RefObject } from 'preact'
import { useRef } from 'preact/hooks'

/** How far a pointer may move, in CSS pixels, and still count as a click rather than a drag. */
const CLICK_SLOP = 4

/**
 * Dragging a zoomed picture moves the view over it, as a hand would: a mouse or pen pans the
 * scrolling box (touch pans it natively). A press that moved is a drag, not a click: `dragged()`
 * tells the click handler that follows it to do nothing.
 */
export function usePan(view: RefObject<HTMLElement | null>): {
  onPointerDown(event: PointerEvent): void
  dragged(): boolean
} {
  const moved = useRef(false)
  const onPointerDown = (event: PointerEvent) => {
    const box = view.current
    moved.current = false
    if (!box || event.button !== 0 || event.pointerType === 'touch') return
    const target = event.currentTarget as HTMLElement
    const start = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop }
    target.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => {
      const [dx, dy] = [e.clientX - start.x, e.clientY - start.y]
      if (!moved.current && Math.hypot(dx, dy) <= CLICK_SLOP) return
      moved.current = true
      box.scrollLeft = start.left - dx
      box.scrollTop = start.top - dy
    }
    const stop = () => {
      target.removeEventListener('pointermove', move)
      target.removeEventListener('pointerup', stop)
      target.removeEventListener('pointercancel', stop)
    }
    target.addEventListener('pointermove', move)
    target.addEventListener('pointerup', stop)
    target.addEventListener('pointercancel', stop)
  }
  return { onPointerDown, dragged: () => moved.current }
}
