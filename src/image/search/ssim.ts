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

/** Rows of horizontally filtered values, each stored twice (see `ringOf`). */
interface Ring {
  readonly values: Float64Array
  readonly squares: Float64Array
}

/** The reference's statistics for each output sample: its local mean and mean square. */
export interface SsimReference {
  readonly plane: GreyPlane
  readonly width: number
  readonly height: number
  readonly mean: Float64Array
  readonly meanSquare: Float64Array
}

function assertSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < SSIM_WINDOW || height < SSIM_WINDOW) {
    throw new RangeError(
      `Expected integer width and height of at least ${SSIM_WINDOW} (the SSIM window) but received ${width}x${height}`,
    )
  }
}

function assertLength(plane: GreyPlane, width: number, height: number, other?: GreyPlane): void {
  if (plane.length !== width * height || (other && other.length !== width * height)) {
    throw new RangeError(
      `Expected two planes of ${width * height} samples (${width}x${height}) but received ${other?.length ?? plane.length} and ${plane.length}`,
    )
  }
}

/*
 * Both passes stream the plane row by row. Row y's horizontally filtered values live in ring
 * slot y % SSIM_WINDOW and again SSIM_WINDOW slots later, so the window of rows an output row
 * needs is always contiguous: slot s to s + 2 * RADIUS.
 */
const ringSlots = (y: number, columns: number) => {
  const slot = y % SSIM_WINDOW
  return [slot * columns, (slot + SSIM_WINDOW) * columns] as const
}

/**
 * The reference half of SSIM, computed once: a search scores many candidates against one
 * reference, and its mean and variance are then two of the five filtered statistics.
 */
export function prepareSsim(plane: GreyPlane, width: number, height: number): SsimReference {
  assertSize(width, height)
  assertLength(plane, width, height)
  const columns = width - 2 * RADIUS
  const mean = new Float64Array(columns * (height - 2 * RADIUS))
  const meanSquare = new Float64Array(mean.length)
  const row = { values: new Float64Array(width), squares: new Float64Array(width) }
  const ring = {
    values: new Float64Array(2 * SSIM_WINDOW * columns),
    squares: new Float64Array(2 * SSIM_WINDOW * columns),
  }
  for (let y = 0; y < height; y++) {
    const [at, twin] = ringSlots(y, columns)
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = plane[i]!
      row.values[x] = v
      row.squares[x] = v * v
    }
    filterInto(row, ring, width, at, twin)
    if (y < 2 * RADIUS) continue
    const centre = (((y - 2 * RADIUS) % SSIM_WINDOW) + RADIUS) * columns
    for (let x = 0, c = centre, o = (y - 2 * RADIUS) * columns; x < columns; x++, c++, o++) {
      mean[o] = convolve(ring.values, c, columns)
      meanSquare[o] = convolve(ring.squares, c, columns)
    }
  }
  return { plane, width, height, mean, meanSquare }
}

function filterInto(row: Ring, ring: Ring, width: number, at: number, twin: number): void {
  for (let x = RADIUS, o = 0; x < width - RADIUS; x++, o++) {
    ring.values[at + o] = ring.values[twin + o] = convolve(row.values, x, 1)
    ring.squares[at + o] = ring.squares[twin + o] = convolve(row.squares, x, 1)
  }
}

/**
 * Mean SSIM of `plane` against a prepared reference of the same size, on the 0-255 scale: 1 for
 * identical planes, lower as they differ. Throws a RangeError when the sizes disagree.
 */
export function ssimAgainst(reference: SsimReference, plane: GreyPlane): number {
  const { width, height } = reference
  assertLength(plane, width, height, reference.plane)
  const a = reference.plane
  const columns = width - 2 * RADIUS
  const row = { values: new Float64Array(width), squares: new Float64Array(width) }
  const products = new Float64Array(width)
  const ring = {
    values: new Float64Array(2 * SSIM_WINDOW * columns),
    squares: new Float64Array(2 * SSIM_WINDOW * columns),
  }
  const ringProducts = new Float64Array(2 * SSIM_WINDOW * columns)
  let total = 0
  for (let y = 0; y < height; y++) {
    const [at, twin] = ringSlots(y, columns)
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const vb = plane[i]!
      row.values[x] = vb
      row.squares[x] = vb * vb
      products[x] = a[i]! * vb
    }
    filterInto(row, ring, width, at, twin)
    for (let x = RADIUS, o = 0; x < width - RADIUS; x++, o++) {
      ringProducts[at + o] = ringProducts[twin + o] = convolve(products, x, 1)
    }
    if (y < 2 * RADIUS) continue
    const centre = (((y - 2 * RADIUS) % SSIM_WINDOW) + RADIUS) * columns
    for (let x = 0, c = centre, o = (y - 2 * RADIUS) * columns; x < columns; x++, c++, o++) {
      const ua = reference.mean[o]!
      const ub = convolve(ring.values, c, columns)
      const va = reference.meanSquare[o]! - ua * ua
      const vb = convolve(ring.squares, c, columns) - ub * ub
      const cov = convolve(ringProducts, c, columns) - ua * ub
      total += ((2 * ua * ub + C1) * (2 * cov + C2)) / ((ua * ua + ub * ub + C1) * (va + vb + C2))
    }
  }
  return total / (columns * (height - 2 * RADIUS))
}

/**
 * Mean SSIM of two planes of equal size on the 0-255 scale: 1 for identical planes, lower as
 * they differ. Throws a RangeError when a side is under SSIM_WINDOW or the sizes disagree.
 */
export function ssim(a: GreyPlane, b: GreyPlane, width: number, height: number): number {
  assertSize(width, height)
  assertLength(b, width, height, a)
  return ssimAgainst(prepareSsim(a, width, height), b)
}
