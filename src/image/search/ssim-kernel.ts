/*
 * SSIM's filters in WebAssembly with 128-bit SIMD, two columns at a time in float64: each row's
 * products (a, a^2 of the reference; b, b^2, ab with the candidate) are filtered across into a
 * ring of rows, and once the ring holds a window, down. The reference's two filtered statistics
 * are computed once and kept (referenceStats); each candidate's three go straight into the SSIM
 * formula with them (ssimCached). The taps are skimage's (ssim.ts computes them) and are added in
 * the same order for every sample; only the final sum runs in two lanes, so the mean agrees with
 * scikit-image to about 1e-14.
 *
 * Memory layout (byte offsets chosen by ssim.ts): both planes as float64; five row buffers of
 * the width plus two; five rings of 2 x WINDOW filtered rows of `stride` columns (the output
 * columns rounded up to even, so that a pair never straddles two rows); the reference's filtered
 * mean and mean square, `stride` columns by the output rows. Row y is stored in ring slot
 * y % WINDOW and again WINDOW slots later, so the window of rows an output row needs is always
 * contiguous.
 */
import { readRow, rowLoop, rowOffsets, splatTaps, vertical, hpass, WINDOW } from './ssim-kernel-rows.ts'
import { F64, I32, op, seq, V128, type Bytes, type WasmFunction } from './wasm-assembler.ts'

const { get, set, tee, i32, f64 } = op

/** Gaussian taps from the centre outwards, and the SSIM constants, as ssim.ts computes them. */
export interface KernelConstants {
  readonly taps: readonly number[]
  readonly c1: number
  readonly c2: number
}

/**
 * The kernel's two functions, with one signature (unused offsets ignored):
 * - stats: the reference's filtered mean and mean square, stored at muA and meanA2 (one float64
 *   pair per output pair, rows `stride` apart);
 * - cached: the sum of the SSIM map of plane b against plane a, the candidate's three statistics
 *   filtered here and the reference's two read back, so that a search scoring many candidates
 *   against one reference filters three of the five per candidate. The values read back are
 *   those filtering them in the same pass would give, so the sum does not change.
 */
type Variant = 'stats' | 'cached'

const NAMES: Readonly<Record<Variant, string>> = { stats: 'referenceStats', cached: 'ssimCached' }

/**
 * variant(a, b, w, h, rows x 5, rings x 5, stride, columns, muA, meanA2). None keeps anything
 * between calls but what `stats` writes where it is told, so one instance serves every comparison.
 */
function ssimFunction(variant: Variant, taps: readonly number[], c1: number, c2: number): WasmFunction {
  const [a, b, w, h] = [0, 1, 2, 3]
  const rowsOf = [4, 5, 6, 7, 8] // a, a^2, b, b^2, ab
  const ringsOf = [9, 10, 11, 12, 13]
  const [stride, columns, muA, meanA2] = [14, 15, 16, 17]
  const [y, o, end, strideBytes, window, srcA, srcB, pairsEnd, outRow] = [18, 19, 20, 21, 22, 23, 24, 25, 26]
  const [va, vb] = [27, 28] // f64
  const rows = 29 // 11 i32
  const base = rows + WINDOW // i32
  const w0 = base + 1 // 6 v128
  const [acc, ua, ub, c1v, c2v, two, mask, varA, varB, cov] = Array.from({ length: 10 }, (_, i) => w0 + 6 + i)
  const [rowA, rowA2, rowB, rowB2, rowP] = rowsOf
  const [ringA, ringA2, ringB, ringB2, ringP] = ringsOf
  // Which of the five statistics this variant filters: the reference's, the candidate's, or all.
  const used = { stats: [0, 1], cached: [2, 3, 4] }[variant]
  const put = (row: number, value: Bytes) => seq(get(row), get(o), op.i32Add, value, op.f64Store())
  const puts = [
    put(rowA!, get(va)),
    put(rowA2!, seq(get(va), get(va), op.f64Mul)),
    put(rowB!, get(vb)),
    put(rowB2!, seq(get(vb), get(vb), op.f64Mul)),
    put(rowP!, seq(get(va), get(vb), op.f64Mul)),
  ]
  const store = seq(
    seq(get(srcA), get(o), op.i32Add, op.f64Load(), set(va)),
    variant === 'stats' ? [] : seq(get(srcB), get(o), op.i32Add, op.f64Load(), set(vb)),
    ...used.map((i) => puts[i]!),
  )
  const filtered = (ring: number) =>
    seq(seq(get(ring), get(window), op.i32Add, get(o), op.i32Add, set(base)), vertical(base, rows, w0))
  const cachedAt = (plane: number) => seq(get(plane), get(outRow), op.i32Add, get(o), op.i32Add)
  // The reference's filtered mean and mean square, as `stats` stored them.
  const meanOfA = seq(cachedAt(muA), op.v128Load())
  const meanSquareOfA = seq(cachedAt(meanA2), op.v128Load())
  // ((2 ua ub + C1)(2 cov + C2)) / ((ua^2 + ub^2 + C1)(va + vb + C2)), as skimage writes it.
  const ssimPair = seq(
    seq(meanOfA, set(ua!), filtered(ringB!), set(ub!)),
    seq(meanSquareOfA, get(ua!), get(ua!), op.f64x2Mul, op.f64x2Sub, set(varA!)),
    seq(filtered(ringB2!), get(ub!), get(ub!), op.f64x2Mul, op.f64x2Sub, set(varB!)),
    seq(filtered(ringP!), get(ua!), get(ub!), op.f64x2Mul, op.f64x2Sub, set(cov!)),
    seq(get(two!), get(ua!), op.f64x2Mul, get(ub!), op.f64x2Mul, get(c1v!), op.f64x2Add),
    seq(get(two!), get(cov!), op.f64x2Mul, get(c2v!), op.f64x2Add, op.f64x2Mul),
    seq(
      get(ua!),
      get(ua!),
      op.f64x2Mul,
      get(ub!),
      get(ub!),
      op.f64x2Mul,
      op.f64x2Add,
      get(c1v!),
      op.f64x2Add,
    ),
    seq(get(varA!), get(varB!), op.f64x2Add, get(c2v!), op.f64x2Add, op.f64x2Mul),
    op.f64x2Div,
  )
  const saveStats = seq(
    seq(cachedAt(muA), filtered(ringA!), op.v128Store()),
    seq(cachedAt(meanA2), filtered(ringA2!), op.v128Store()),
  )
  const pairStep = variant === 'stats' ? saveStats : seq(get(acc!), ssimPair, op.f64x2Add, set(acc!))
  // An odd last column: its pair's second lane is the stride's padding, masked out of the sum
  // (and stored as it is by `stats`, for `cached` to read and mask alike).
  const lastPair =
    variant === 'stats'
      ? saveStats
      : seq(get(acc!), ssimPair, get(mask!), op.f64x2Mul, op.f64x2Add, set(acc!))
  const emitRow = seq(
    seq(get(y), i32(WINDOW - 1), op.i32Sub, get(strideBytes), op.i32Mul, set(outRow)),
    i32(0),
    set(o),
    op.block(
      seq(
        get(pairsEnd),
        op.i32Eqz,
        op.brIf(0),
        op.loop(seq(pairStep, seq(get(o), i32(16), op.i32Add, tee(o), get(pairsEnd), op.i32LtU, op.brIf(0)))),
      ),
    ),
    seq(get(columns), i32(1), op.i32And),
    op.if(seq(get(pairsEnd), set(o), lastPair)),
  )
  const body = seq(
    splatTaps(taps, w0),
    seq(
      f64(c1),
      op.f64x2Splat,
      set(c1v!),
      f64(c2),
      op.f64x2Splat,
      set(c2v!),
      f64(2),
      op.f64x2Splat,
      set(two!),
    ),
    seq(op.v128Const([1, 0]), set(mask!), op.v128Const([0, 0]), set(acc!)),
    seq(get(stride), i32(8), op.i32Mul, set(strideBytes)),
    seq(get(columns), i32(-2), op.i32And, i32(8), op.i32Mul, set(pairsEnd)),
    rowOffsets(strideBytes, rows),
    rowLoop({
      y,
      h,
      strideBytes,
      window,
      rowsRead: seq(
        seq(get(y), get(w), op.i32Mul, i32(8), op.i32Mul, set(srcB)),
        seq(get(a), get(srcB), op.i32Add, set(srcA)),
        seq(get(b), get(srcB), op.i32Add, set(srcB)),
        readRow({ w, o, end, store }),
      ),
      rings: used.map((i) => [rowsOf[i]!, ringsOf[i]!] as const),
      emitRow,
    }),
    get(acc!),
    op.f64x2ExtractLane(0),
    get(acc!),
    op.f64x2ExtractLane(1),
    op.f64Add,
  )
  return {
    name: NAMES[variant],
    params: Array(18).fill(I32),
    results: [F64],
    locals: [...Array(9).fill(I32), F64, F64, ...Array(WINDOW + 1).fill(I32), ...Array(6 + 10).fill(V128)],
    body,
  }
}

export function kernelFunctions({ taps, c1, c2 }: KernelConstants): WasmFunction[] {
  // hpass first: the driver calls function 0.
  return [hpass(taps), ...(['stats', 'cached'] as const).map((v) => ssimFunction(v, taps, c1, c2))]
}
