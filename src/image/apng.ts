import { AppError } from '../errors/app-error.ts'
import { encodePngChunk, PNG_SIGNATURE, pngChunks, type PngChunk } from './png-chunks.ts'
import { sharp, type Sharp } from './sharp.ts'

/**
 * libvips reads only the default image of an APNG. To keep its animation we rebuild each
 * frame as a standalone PNG (so libpng still does all decoding), then composite the frames
 * following the APNG dispose and blend rules into one tall RGBA strip that sharp treats as
 * an animated image.
 */
export interface Animation {
  readonly delay: number[]
  readonly loop: number
}

interface FrameControl {
  readonly width: number
  readonly height: number
  readonly x: number
  readonly y: number
  readonly delayMs: number
  readonly dispose: number
  readonly blend: number
  readonly data: Uint8Array[]
}

const COPIED_BEFORE_IDAT = new Set(['PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT'])
const animations = new WeakMap<Sharp, Animation>()

function readFrames(input: Uint8Array) {
  const frames: FrameControl[] = []
  const shared: PngChunk[] = []
  let header: Uint8Array | undefined
  let loop = 0
  for (const c of pngChunks(input)) {
    const view = new DataView(c.data.buffer, c.data.byteOffset, c.data.byteLength)
    if (c.type === 'IHDR') header = c.data
    else if (c.type === 'acTL') loop = view.getUint32(4)
    else if (COPIED_BEFORE_IDAT.has(c.type) && frames.length === 0) shared.push(c)
    else if (c.type === 'fcTL') {
      const delayDen = view.getUint16(22) || 100
      const delayMs = Math.round((view.getUint16(20) * 1000) / delayDen)
      frames.push({
        width: view.getUint32(4),
        height: view.getUint32(8),
        x: view.getUint32(12),
        y: view.getUint32(16),
        delayMs,
        dispose: c.data[24]!,
        blend: c.data[25]!,
        data: [],
      })
    } else if (c.type === 'IDAT' && frames.length === 1) frames[0]!.data.push(c.data)
    else if (c.type === 'fdAT' && frames.length > 0) frames.at(-1)!.data.push(c.data.subarray(4))
  }
  if (!header || frames.length === 0)
    throw new AppError('CORRUPT_IMAGE', 'expected a complete APNG, received one without frame data')
  return { header, shared, frames, loop }
}

async function decodeFrame(header: Uint8Array, shared: PngChunk[], frame: FrameControl): Promise<Uint8Array> {
  // A copy, never a view: the input may be a Buffer, whose slice() shares memory.
  const ihdr = new Uint8Array(header)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, frame.width)
  view.setUint32(4, frame.height)
  const png = Buffer.concat([
    Uint8Array.from(PNG_SIGNATURE),
    encodePngChunk('IHDR', ihdr),
    ...shared.map((c) => encodePngChunk(c.type, c.data)),
    encodePngChunk('IDAT', Buffer.concat(frame.data)),
    encodePngChunk('IEND', new Uint8Array(0)),
  ])
  return sharp(png, { failOn: 'truncated' })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer()
}

/** Source-over compositing of straight (non-premultiplied) RGBA, as APNG specifies. */
function blendOver(canvas: Uint8Array, width: number, pixels: Uint8Array, f: FrameControl, replace: boolean) {
  for (let row = 0; row < f.height; row++) {
    for (let col = 0; col < f.width; col++) {
      const s = (row * f.width + col) * 4
      const d = ((f.y + row) * width + f.x + col) * 4
      const sa = pixels[s + 3]! / 255
      if (replace || sa === 1) {
        canvas.set(pixels.subarray(s, s + 4), d)
        continue
      }
      const da = canvas[d + 3]! / 255
      const oa = sa + da * (1 - sa)
      for (let k = 0; k < 3; k++) {
        canvas[d + k] = oa === 0 ? 0 : Math.round((pixels[s + k]! * sa + canvas[d + k]! * da * (1 - sa)) / oa)
      }
      canvas[d + 3] = Math.round(oa * 255)
    }
  }
}

function clearRect(canvas: Uint8Array, width: number, f: FrameControl) {
  for (let row = 0; row < f.height; row++) {
    const start = ((f.y + row) * width + f.x) * 4
    canvas.fill(0, start, start + f.width * 4)
  }
}

/** An animated sharp image with every APNG frame, plus the timing the encoder needs. */
export async function decodeApng(input: Uint8Array, maxInputPixels: number): Promise<Sharp> {
  const { header, shared, frames, loop } = readFrames(input)
  const view = new DataView(header.buffer, header.byteOffset)
  const width = view.getUint32(0)
  const height = view.getUint32(4)
  if (width * height * frames.length > maxInputPixels) {
    throw new AppError(
      'IMAGE_TOO_LARGE',
      `expected at most ${maxInputPixels} pixels, received ${width}x${height} x ${frames.length} frames`,
    )
  }
  const frameBytes = width * height * 4
  const strip = new Uint8Array(frameBytes * frames.length)
  const canvas = new Uint8Array(frameBytes)
  for (const [i, f] of frames.entries()) {
    if (f.x + f.width > width || f.y + f.height > height) {
      throw new AppError(
        'CORRUPT_IMAGE',
        `expected APNG frames inside the ${width}x${height} canvas, frame ${i} is outside it`,
      )
    }
    const saved = f.dispose === 2 ? canvas.slice() : undefined
    blendOver(canvas, width, await decodeFrame(header, shared, f), f, f.blend === 0)
    strip.set(canvas, i * frameBytes)
    if (f.dispose === 1 || (f.dispose === 2 && i === 0)) clearRect(canvas, width, f)
    else if (saved) canvas.set(saved)
  }
  // `animated` makes sharp treat the strip as pages, so a resize scales each frame.
  const image = sharp(strip, {
    raw: { width, height: height * frames.length, channels: 4, pageHeight: height },
    animated: true,
  })
  animations.set(image, { delay: frames.map((f) => f.delayMs), loop })
  return image
}

/** Frame timing for an image made by decodeApng or from raw frames; other images carry their own. */
export function animationOf(image: Sharp): Animation | undefined {
  return animations.get(image)
}

/** Gives an image built from raw frames the timing its encoder will need. */
export function rememberAnimation(image: Sharp, animation: Animation): Sharp {
  animations.set(image, animation)
  return image
}
