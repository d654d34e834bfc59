/** The colours of a small image, as a canvas reads them, for BlurHash and the dominant colour. */
export interface Pixels {
  readonly data: Uint8ClampedArray
  readonly width: number
  readonly height: number
}

export async function pixelsOf(blob: Blob): Promise<Pixels> {
  const bitmap = await createImageBitmap(blob)
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
  const context = canvas.getContext('2d')!
  context.drawImage(bitmap, 0, 0)
  bitmap.close()
  return {
    data: context.getImageData(0, 0, canvas.width, canvas.height).data,
    width: canvas.width,
    height: canvas.height,
  }
}

const hex = (value: number) => Math.round(value).toString(16).padStart(2, '0')

/**
 * The colour most of the image is: pixels grouped by colour (4 bits a channel), the largest
 * group's mean. Unlike the plain average, a red car on grey stays grey, not brownish.
 */
export function dominantColour({ data }: Pixels): string {
  const groups = new Map<number, [number, number, number, number]>()
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! < 128) continue
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4)
    const group = groups.get(key) ?? [0, 0, 0, 0]
    group[0] += r
    group[1] += g
    group[2] += b
    group[3]++
    groups.set(key, group)
  }
  let best: [number, number, number, number] = [255, 255, 255, 1]
  for (const group of groups.values()) if (group[3] > best[3] || best[3] === 1) best = group
  return `#${hex(best[0] / best[3])}${hex(best[1] / best[3])}${hex(best[2] / best[3])}`
}

/**
 * A PNG of `side` pixels of this colour with the picture drawn on it at its own size, `inset`
 * pixels in from the top and the left: nothing is resampled, so the picture's pixels stay the
 * server's, and none of the result is transparent.
 */
export async function layOn(picture: Blob, colour: string, side: number, inset: number): Promise<Blob> {
  const bitmap = await createImageBitmap(picture)
  const canvas = new OffscreenCanvas(side, side)
  const context = canvas.getContext('2d')!
  context.fillStyle = colour
  context.fillRect(0, 0, side, side)
  context.drawImage(bitmap, inset, inset)
  bitmap.close()
  return canvas.convertToBlob({ type: 'image/png' })
}

export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })
}
