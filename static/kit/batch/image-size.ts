/**
 * An image's width and height as the browser decodes it, for options that depend on them
 * (resizing by percent). Formats the browser cannot decode (TIFF, HEIC) have none here.
 */
export async function imageSize(file: Blob): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file)
    const size = { width: bitmap.width, height: bitmap.height }
    bitmap.close()
    return size
  } catch {
    return undefined
  }
}
