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
 *
 * The filters run in WebAssembly with SIMD (search/ssim-kernel.ts), two columns at a time: a
 * search scores every candidate it encodes, and in JavaScript the SSIM of a megapixel took
 * longer than encoding it as JPEG.
 */
import { kernelFunctions } from './ssim-kernel.ts'
import { assemble } from './wasm-assembler.ts'

/** 8-bit or floating-point samples on the 0-255 scale, row by row, one channel. */
export type GreyPlane = Uint8Array | Uint8ClampedArray | Float32Array | Float64Array

const SIGMA = 1.5
/** scipy.ndimage's int(truncate * sigma + 0.5) for skimage's truncate 3.5; the kernel spells out its taps. */
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

/** The kernel's exports (search/ssim-kernel.ts), both with one signature. */
interface Kernel {
  readonly memory: WebAssembly.Memory
  referenceStats(...offsets: number[]): number
  ssimCached(...offsets: number[]): number
}

let instance: Kernel | undefined

/**
 * One instance for the process, assembled on first use: the kernel keeps nothing between calls,
 * so its memory is scratch, and the server process, which never scores (the workers do), does
 * not pay for it at start-up.
 */
function kernel(): Kernel {
  instance ??= new WebAssembly.Instance(
    new WebAssembly.Module(assemble(kernelFunctions({ taps: gaussianHalfKernel(), c1: C1, c2: C2 }))),
  ).exports as unknown as Kernel
  return instance
}

const PAGE = 65536
const aligned = (bytes: number) => Math.ceil(bytes / 16) * 16

/** Byte offsets of the kernel's arrays for planes of this size (see search/ssim-kernel.ts). */
function layoutFor(width: number, height: number) {
  const columns = width - 2 * RADIUS
  const stride = columns + (columns & 1)
  let next = 0
  const take = (bytes: number) => {
    const at = next
    next += aligned(bytes)
    return at
  }
  const plane = 8 * width * height
  const a = take(plane)
  const b = take(plane)
  const rows = Array.from({ length: 5 }, () => take(8 * (width + 2)))
  const rings = Array.from({ length: 5 }, () => take(8 * 2 * SSIM_WINDOW * stride))
  const statsPlane = 8 * stride * (height - 2 * RADIUS)
  const muA = take(statsPlane)
  const meanA2 = take(statsPlane)
  return { a, b, rows, rings, stride, columns, muA, meanA2, bytes: next }
}

/** A reference plane, checked once: a search scores many candidates against one reference. */
export interface SsimReference {
  readonly plane: GreyPlane
  readonly width: number
  readonly height: number
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

/** Checks the reference once, for scoring several candidates against it. */
export function prepareSsim(plane: GreyPlane, width: number, height: number): SsimReference {
  assertSize(width, height)
  assertLength(plane, width, height)
  return { plane, width, height }
}

/**
 * The reference whose plane and filtered statistics the kernel's memory holds: the next
 * candidate scored against it skips copying the one and filtering the others (two of SSIM's
 * five filtered statistics, about a third of the time). Scoring against another reference in
 * between (two searches in one process) only costs filtering them again.
 */
let resident: SsimReference | undefined

/** Loads the reference's plane and filtered statistics into the kernel's memory, unless they are there. */
function makeResident(reference: SsimReference) {
  const { width, height } = reference
  const { a, b, rows, rings, stride, columns, muA, meanA2, bytes } = layoutFor(width, height)
  const scorer = kernel()
  const { memory } = scorer
  if (memory.buffer.byteLength < bytes) {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE))
    resident = undefined
  }
  const offsets = [a, b, width, height, ...rows, ...rings, stride, columns, muA, meanA2]
  if (resident !== reference) {
    new Float64Array(memory.buffer, a, width * height).set(reference.plane)
    scorer.referenceStats(...offsets)
    resident = reference
  }
  return { scorer, memory, offsets, b, columns }
}

/**
 * Readies the kernel for candidates scored against `reference`: a search calls it while libvips
 * encodes the next candidate on another thread, so that the reference's half of SSIM (about a
 * third of the first candidate's time) is not in the candidate's way.
 */
export function primeSsim(reference: SsimReference): void {
  makeResident(reference)
}

/**
 * Mean SSIM of `plane` against a prepared reference of the same size, on the 0-255 scale: 1 for
 * identical planes, lower as they differ. Throws a RangeError when the sizes disagree.
 */
export function ssimAgainst(reference: SsimReference, plane: GreyPlane): number {
  const { width, height } = reference
  assertLength(plane, width, height, reference.plane)
  const { scorer, memory, offsets, b, columns } = makeResident(reference)
  new Float64Array(memory.buffer, b, width * height).set(plane)
  const total = scorer.ssimCached(...offsets)
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
