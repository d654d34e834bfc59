/*
 * The row machinery of the SSIM kernel (ssim-kernel.ts): the horizontal filter as a function of
 * its own, and the macros that filter a pair of columns down a window of rows, copy a row of
 * the planes, and walk the rows through the ring.
 */
import { I32, op, seq, V128, type Bytes, type WasmFunction } from './wasm-assembler.ts'

const { get, set, tee, i32, f64 } = op
export const WINDOW = 11

/** Sets locals first..first+5 to the six taps splatted across both lanes. */
export const splatTaps = (taps: readonly number[], first: number) =>
  seq(...taps.map((tap, k) => seq(f64(tap), op.f64x2Splat, set(first + k))))

/** tap_0 x[0] + sum_k tap_k (x[-k] + x[+k]) for a pair of columns, `load(k)` pushing x[k] (k taps from the centre). */
export function filterPair(load: (offsetFromCentre: number) => Bytes, taps: number): number[] {
  const parts: (Bytes | number)[] = [load(0), get(taps), op.f64x2Mul]
  for (let k = 1; k <= 5; k++) {
    parts.push(load(-k), load(k), op.f64x2Add, get(taps + k), op.f64x2Mul, op.f64x2Add)
  }
  return seq(...parts)
}

/** hpass(src, dst, twin, bytes): each pair of filtered values of a row, stored at dst and twin. */
export function hpass(taps: readonly number[]): WasmFunction {
  const [src, dst, twin, bytes, o, p, w0] = [0, 1, 2, 3, 4, 5, 6]
  const acc = w0 + 6
  const body = seq(
    splatTaps(taps, w0),
    op.loop(
      seq(
        get(src),
        get(o),
        op.i32Add,
        set(p),
        filterPair((k) => seq(get(p), op.v128Load((5 + k) * 8)), w0),
        set(acc),
        seq(get(dst), get(o), op.i32Add, get(acc), op.v128Store()),
        seq(get(twin), get(o), op.i32Add, get(acc), op.v128Store()),
        seq(get(o), i32(16), op.i32Add, tee(o), get(bytes), op.i32LtU, op.brIf(0)),
      ),
    ),
  )
  return {
    name: 'hpass',
    params: [I32, I32, I32, I32],
    results: [],
    locals: [I32, I32, ...Array(7).fill(V128)],
    body,
  }
}

/** Vertical filter of the pair at local `base` (row 0 of the window), rows in locals rows..rows+10. */
export const vertical = (base: number, rows: number, taps: number) =>
  filterPair(
    (k) =>
      k === -5 ? seq(get(base), op.v128Load()) : seq(get(base), get(rows + 5 + k), op.i32Add, op.v128Load()),
    taps,
  )

/** Locals holding k * stride bytes, k = 0..10 (local rows itself holds 0). */
export const rowOffsets = (strideBytes: number, rows: number) =>
  seq(...Array.from({ length: WINDOW }, (_, k) => seq(get(strideBytes), i32(k), op.i32Mul, set(rows + k))))

/**
 * The per-row driver shared by both exports: for y in 0..h, `loadRow`, three (or two) hpass
 * calls into ring slot y % WINDOW and its twin, then, once WINDOW rows are in, `emitRow` for
 * output row y - 10 with local `window` at the ring offset of its first row.
 */
export function rowLoop(l: {
  y: number
  h: number
  strideBytes: number
  window: number
  rowsRead: Bytes
  rings: readonly (readonly [number, number])[]
  emitRow: Bytes
}): number[] {
  const hpassCalls = l.rings.map(([row, ring]) =>
    seq(
      get(row),
      seq(get(ring), get(l.y), i32(WINDOW), op.i32RemU, get(l.strideBytes), op.i32Mul, op.i32Add),
      seq(
        get(ring),
        get(l.y),
        i32(WINDOW),
        op.i32RemU,
        i32(WINDOW),
        op.i32Add,
        get(l.strideBytes),
        op.i32Mul,
        op.i32Add,
      ),
      get(l.strideBytes),
      op.call(0),
    ),
  )
  return seq(
    i32(0),
    set(l.y),
    op.loop(
      seq(
        l.rowsRead,
        ...hpassCalls,
        get(l.y),
        i32(WINDOW - 1),
        op.i32GeU,
        op.if(
          seq(
            seq(
              get(l.y),
              i32(WINDOW - 1),
              op.i32Sub,
              i32(WINDOW),
              op.i32RemU,
              get(l.strideBytes),
              op.i32Mul,
              set(l.window),
            ),
            l.emitRow,
          ),
        ),
        seq(get(l.y), i32(1), op.i32Add, tee(l.y), get(l.h), op.i32LtU, op.brIf(0)),
      ),
    ),
  )
}

/** Copies row y of the planes into the row buffers: for x < w, each `store(o)` sequence. */
export const readRow = (l: { w: number; o: number; end: number; store: Bytes }) =>
  seq(
    i32(0),
    set(l.o),
    seq(get(l.w), i32(8), op.i32Mul, set(l.end)),
    op.loop(seq(l.store, get(l.o), i32(8), op.i32Add, tee(l.o), get(l.end), op.i32LtU, op.brIf(0))),
  )
