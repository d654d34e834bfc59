/*
 * SSIM (Wang, Bovik, Sheikh & Simoncelli 2004) of two greyscale planes, computed the way
 * scikit-image's `structural_similarity(a, b, gaussian_weights=True, sigma=1.5,
 * use_sample_covariance=False, data_range=255)` does: scipy's Gaussian filter (sigma 1.5,
 * truncated at 3.5 sigma, so 11 taps) for the local means, variances and covariance, the
 * SSIM map from them, and its mean after cropping the filter radius from every edge.
 *
 * The crop equals the filter radius, so every window that reaches the mean lies wholly inside
 * the image: scipy's 'reflect' border values are computed but then cropped away, and skipping
 * them gives the same mean without any padding. skimage promotes 8-bit planes to float64, and
 * so does this code, so the two agree to about 1e-15; the order of the additions differs.
 */

/** 8-bit or floating-point samples on the 0-255 scale, row by row, one channel. */
export type GreyPlane = Uint8Array | Uint8ClampedArray | Float32Array | Float64Array

const SIGMA = 1.5
/** scipy.ndimage's int(truncate * sigma + 0.5) for skimage's truncate 3.5; `convolve` spells out its taps. */
const RADIUS = 5
/** Side of the Gaussian window; planes narrower or shorter than this have no SSIM. */
export const SSIM_WINDOW = 2 * RADIUS + 1
const DATA_RANGE = 255
const C1 = (0.01 * DATA_RANGE) ** 2
const C2 = (0.03 * DATA_RANGE) ** 2

/** scipy's kernel, exp(-x^2 / 2 sigma^2) normalised to sum 1, from the centre outwards (it is symmetric). */
function gaussianHalfKernel(): [number, number, number, number, number, number] {
  const bell = (x: number) => Math.exp((-0.5 / (SIGMA * SIGMA)) * x * x)
  let sum = 0
  for (let x = -RADIUS; x <= RADIUS; x++) sum += bell(x)
  return [bell(0) / sum, bell(1) / sum, bell(2) / sum, bell(3) / sum, bell(4) / sum, bell(5) / sum]
}

const [W0, W1, W2, W3, W4, W5] = gaussianHalfKernel()

/**
 * The filtered value at `c` of samples `s` apart. Written out rather than looped: Bun runs the
 * whole SSIM about 1.6 times faster so.
 */
function convolve(p: Float64Array, c: number, s: number): number {
  return (
    W0 * p[c]! +
    W1 * (p[c - s]! + p[c + s]!) +
    W2 * (p[c - 2 * s]! + p[c + 2 * s]!) +
    W3 * (p[c - 3 * s]! + p[c + 3 * s]!) +
    W4 * (p[c - 4 * s]! + p[c + 4 * s]!) +
    W5 * (p[c - 5 * s]! + p[c + 5 * s]!)
  )
}

/** The five local statistics, each a ring of filtered rows (see `ssim` for the layout). */
interface Moments {
  readonly a: Float64Array
  readonly b: Float64Array
  readonly aa: Float64Array
  readonly bb: Float64Array
  readonly ab: Float64Array
}

const allocateMoments = (length: number): Moments => ({
  a: new Float64Array(length),
  b: new Float64Array(length),
  aa: new Float64Array(length),
  bb: new Float64Array(length),
  ab: new Float64Array(length),
})

/** Filters row `y` horizontally into `at` and `twin` of `out`, keeping the columns the crop keeps. */
function filterRow(
  a: GreyPlane,
  b: GreyPlane,
  width: number,
  y: number,
  row: Moments,
  out: Moments,
  at: number,
  twin: number,
): void {
  for (let x = 0, i = y * width; x < width; x++, i++) {
    const va = a[i]!
    const vb = b[i]!
    row.a[x] = va
    row.b[x] = vb
    row.aa[x] = va * va
    row.bb[x] = vb * vb
    row.ab[x] = va * vb
  }
  for (let x = RADIUS, o = 0; x < width - RADIUS; x++, o++) {
    out.a[at + o] = out.a[twin + o] = convolve(row.a, x, 1)
    out.b[at + o] = out.b[twin + o] = convolve(row.b, x, 1)
    out.aa[at + o] = out.aa[twin + o] = convolve(row.aa, x, 1)
    out.bb[at + o] = out.bb[twin + o] = convolve(row.bb, x, 1)
    out.ab[at + o] = out.ab[twin + o] = convolve(row.ab, x, 1)
  }
}

/** Filters one output row vertically around `centre` and returns the sum of its SSIM values. */
function sumSsimRow(m: Moments, centre: number, columns: number): number {
  let sum = 0
  for (let x = 0, c = centre; x < columns; x++, c++) {
    const ua = convolve(m.a, c, columns)
    const ub = convolve(m.b, c, columns)
    const va = convolve(m.aa, c, columns) - ua * ua
    const vb = convolve(m.bb, c, columns) - ub * ub
    const cov = convolve(m.ab, c, columns) - ua * ub
    sum += ((2 * ua * ub + C1) * (2 * cov + C2)) / ((ua * ua + ub * ub + C1) * (va + vb + C2))
  }
  return sum
}

function assertPlanes(a: GreyPlane, b: GreyPlane, width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < SSIM_WINDOW || height < SSIM_WINDOW) {
    throw new RangeError(
      `Expected integer width and height of at least ${SSIM_WINDOW} (the SSIM window) but received ${width}x${height}`,
    )
  }
  if (a.length !== width * height || b.length !== width * height) {
    throw new RangeError(
      `Expected two planes of ${width * height} samples (${width}x${height}) but received ${a.length} and ${b.length}`,
    )
  }
}

/**
 * Mean SSIM of two planes of equal size on the 0-255 scale: 1 for identical planes, lower as
 * they differ. Throws a RangeError when a side is under SSIM_WINDOW or the sizes disagree.
 */
export function ssim(a: GreyPlane, b: GreyPlane, width: number, height: number): number {
  assertPlanes(a, b, width, height)
  const columns = width - 2 * RADIUS
  const rows = height - 2 * RADIUS
  const row = allocateMoments(width)
  // Row y's filtered values live in slot y % SSIM_WINDOW and again SSIM_WINDOW slots later,
  // so the window of rows any output row needs is always contiguous: slot s to s + 2 * RADIUS.
  const ring = allocateMoments(2 * SSIM_WINDOW * columns)
  let total = 0
  for (let y = 0; y < height; y++) {
    const slot = y % SSIM_WINDOW
    filterRow(a, b, width, y, row, ring, slot * columns, (slot + SSIM_WINDOW) * columns)
    if (y < 2 * RADIUS) continue
    const first = (y - 2 * RADIUS) % SSIM_WINDOW
    total += sumSsimRow(ring, (first + RADIUS) * columns, columns)
  }
  return total / (columns * rows)
}
