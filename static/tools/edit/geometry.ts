/*
 * The crop box's arithmetic, apart from the page so it can be tested alone. Two spaces meet here:
 * the upright original, in whose pixels the API takes `crop` (it crops first of all), and the
 * view, the original as the reader sees it mirrored (flip, flop) and turned by quarter turns,
 * in which the box is drawn and its numbers are typed. Rectangles are whole pixels.
 */
export interface Size {
  readonly width: number
  readonly height: number
}

export interface Rect {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

/** How the view shows the original: mirrored first, then turned clockwise, as the API does. */
export interface View {
  readonly turns: number
  readonly flip: boolean
  readonly flop: boolean
}

/** A region's least offset and size in pixels, as the API's crop takes them (x, y from 0; w, h from 1). */
export const SMALLEST: Readonly<Rect> = { left: 0, top: 0, width: 1, height: 1 }

export const wholeOf = (size: Size): Rect => ({ left: 0, top: 0, width: size.width, height: size.height })

export const isWhole = (rect: Rect, size: Size): boolean =>
  rect.left === 0 && rect.top === 0 && rect.width === size.width && rect.height === size.height

/** Quarter turns as 0 to 3, whatever number of them was asked for. */
export const quarter = (turns: number): number => ((Math.round(turns) % 4) + 4) % 4

export function viewSize(size: Size, view: View): Size {
  return quarter(view.turns) % 2 ? { width: size.height, height: size.width } : size
}

/** Where a point of the original lands in the view (points are corners, so they run 0..width). */
function toViewPoint(x: number, y: number, size: Size, view: View): [number, number] {
  let [px, py] = [view.flop ? size.width - x : x, view.flip ? size.height - y : y]
  let [w, h] = [size.width, size.height]
  for (let i = 0; i < quarter(view.turns); i++) {
    // One clockwise turn of a w × h box: the left edge becomes the top one.
    ;[px, py] = [h - py, px]
    ;[w, h] = [h, w]
  }
  return [px, py]
}

function fromViewPoint(x: number, y: number, size: Size, view: View): [number, number] {
  let [px, py] = [x, y]
  const turned = viewSize(size, view)
  let [w, h] = [turned.width, turned.height]
  for (let i = 0; i < quarter(view.turns); i++) {
    // One turn back (anticlockwise) of a w × h box.
    ;[px, py] = [py, w - px]
    ;[w, h] = [h, w]
  }
  return [view.flop ? size.width - px : px, view.flip ? size.height - py : py]
}

function spanning(a: [number, number], b: [number, number]): Rect {
  const left = Math.min(a[0], b[0])
  const top = Math.min(a[1], b[1])
  return { left, top, width: Math.abs(a[0] - b[0]), height: Math.abs(a[1] - b[1]) }
}

/** A rectangle of the original as the view shows it. */
export function toView(rect: Rect, size: Size, view: View): Rect {
  const a = toViewPoint(rect.left, rect.top, size, view)
  const b = toViewPoint(rect.left + rect.width, rect.top + rect.height, size, view)
  return spanning(a, b)
}

/** A rectangle drawn in the view, in the original's pixels: what `crop` is sent as. */
export function toOriginal(rect: Rect, size: Size, view: View): Rect {
  const a = fromViewPoint(rect.left, rect.top, size, view)
  const b = fromViewPoint(rect.left + rect.width, rect.top + rect.height, size, view)
  return spanning(a, b)
}

/** Whole pixels, at least one, inside the bounds: moved back in before it is made smaller. */
export function clampRect(rect: Rect, bounds: Size): Rect {
  const width = Math.min(bounds.width, Math.max(1, Math.round(rect.width)))
  const height = Math.min(bounds.height, Math.max(1, Math.round(rect.height)))
  const left = Math.min(bounds.width - width, Math.max(0, Math.round(rect.left)))
  const top = Math.min(bounds.height - height, Math.max(0, Math.round(rect.top)))
  return { left, top, width, height }
}

/**
 * The box with one of its numbers typed: that number stays as typed (within the bounds) and the
 * others give way, whatever order they are typed in. A start too far for the size makes the box
 * smaller; a size too large for the start moves the box back; with a ratio the other side
 * follows.
 */
export function withField(rect: Rect, field: keyof Rect, value: number, bounds: Size, ratio?: number): Rect {
  const typed = Math.round(value)
  let { left, top, width, height } = rect
  if (field === 'left') {
    left = Math.min(bounds.width - 1, Math.max(0, typed))
    width = Math.min(width, bounds.width - left)
    if (ratio) height = width / ratio
  } else if (field === 'top') {
    top = Math.min(bounds.height - 1, Math.max(0, typed))
    height = Math.min(height, bounds.height - top)
    if (ratio) width = height * ratio
  } else if (field === 'width') {
    width = Math.min(bounds.width, Math.max(1, typed))
    if (ratio) height = width / ratio
  } else {
    height = Math.min(bounds.height, Math.max(1, typed))
    if (ratio) width = height * ratio
  }
  // A ratio can ask for more than the bounds hold: the box is then as large as they allow.
  if (ratio && height > bounds.height) [height, width] = [bounds.height, bounds.height * ratio]
  if (ratio && width > bounds.width) [width, height] = [bounds.width, bounds.width / ratio]
  return clampRect({ left, top, width, height }, bounds)
}

/** The largest box of this width-to-height ratio, centred; the whole bounds without one. */
export function fitRatio(bounds: Size, ratio: number | undefined): Rect {
  if (!ratio) return wholeOf(bounds)
  const width = Math.min(bounds.width, bounds.height * ratio)
  const height = width / ratio
  return clampRect(
    { left: (bounds.width - width) / 2, top: (bounds.height - height) / 2, width, height },
    bounds,
  )
}

/** The box moved by (dx, dy), stopping at the edges. */
export function moveRect(rect: Rect, dx: number, dy: number, bounds: Size): Rect {
  return clampRect({ ...rect, left: rect.left + dx, top: rect.top + dy }, bounds)
}

/** Which edges a handle drags: -1 the start (left, top), 1 the end (right, bottom), 0 neither. */
export interface Edges {
  readonly x: -1 | 0 | 1
  readonly y: -1 | 0 | 1
}

/**
 * The box with the dragged edges moved by (dx, dy) and the opposite ones held. With a ratio the
 * other side follows, centred on the box when only one edge moves; it stops where it would leave
 * the bounds.
 */
export function resizeRect(
  rect: Rect,
  edges: Edges,
  dx: number,
  dy: number,
  bounds: Size,
  ratio?: number,
): Rect {
  const right = rect.left + rect.width
  const bottom = rect.top + rect.height
  let width = rect.width + edges.x * dx
  let height = rect.height + edges.y * dy
  // The room each way from the held edges (or from the centre, when a side is not dragged).
  const roomX = edges.x < 0 ? right : edges.x > 0 ? bounds.width - rect.left : bounds.width
  const roomY = edges.y < 0 ? bottom : edges.y > 0 ? bounds.height - rect.top : bounds.height
  if (ratio) {
    if (edges.x === 0) width = height * ratio
    else if (edges.y === 0) height = width / ratio
    else if (Math.abs(dx) >= Math.abs(dy * ratio)) height = width / ratio
    else width = height * ratio
    const centreRoomX = 2 * Math.min(rect.left + rect.width / 2, bounds.width - rect.left - rect.width / 2)
    const centreRoomY = 2 * Math.min(rect.top + rect.height / 2, bounds.height - rect.top - rect.height / 2)
    const maxWidth = Math.min(edges.x ? roomX : centreRoomX, (edges.y ? roomY : centreRoomY) * ratio)
    width = Math.max(1, Math.min(width, maxWidth))
    height = width / ratio
  } else {
    width = Math.max(1, Math.min(width, roomX))
    height = Math.max(1, Math.min(height, roomY))
  }
  const left = edges.x < 0 ? right - width : edges.x > 0 ? rect.left : rect.left + (rect.width - width) / 2
  const top = edges.y < 0 ? bottom - height : edges.y > 0 ? rect.top : rect.top + (rect.height - height) / 2
  return clampRect({ left, top, width, height }, bounds)
}

/** A box drawn from one point to another, of the ratio if there is one. */
export function fromPoints(
  from: readonly [number, number],
  to: readonly [number, number],
  bounds: Size,
  ratio?: number,
): Rect {
  const start = { left: from[0], top: from[1], width: 0, height: 0 }
  const edges: Edges = { x: to[0] < from[0] ? -1 : 1, y: to[1] < from[1] ? -1 : 1 }
  return resizeRect(start, edges, to[0] - from[0], to[1] - from[1], bounds, ratio)
}

/**
 * The box after a key: an arrow moves it, Shift with an arrow makes it larger (right, down) or
 * smaller (left, up), by `step` pixels; undefined for any other key.
 */
export function nudge(
  rect: Rect,
  key: string,
  shift: boolean,
  step: number,
  bounds: Size,
  ratio?: number,
): Rect | undefined {
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  }
  const move = moves[key]
  if (!move) return undefined
  if (!shift) return moveRect(rect, move[0], move[1], bounds)
  // Resizing holds the top-left corner: the right and bottom edges move.
  return resizeRect(rect, { x: move[0] ? 1 : 0, y: move[1] ? 1 : 0 }, move[0], move[1], bounds, ratio)
}

/** The size of the image after the crop and the turn: the box in the view, then any fine angle. */
export function turnedSize(box: Size, angle: number): Size {
  const radians = (angle * Math.PI) / 180
  const [cos, sin] = [Math.abs(Math.cos(radians)), Math.abs(Math.sin(radians))]
  return {
    width: Math.round(box.width * cos + box.height * sin),
    height: Math.round(box.width * sin + box.height * cos),
  }
}
