import type { PackedFormat } from '../../formats/format-table.ts'
import type { JobPlan } from '../job-plan.ts'
import { sharp, type Sharp } from '../sharp.ts'
import { packIco } from './ico.ts'

/** What a packer gives back: the file, and the size of its largest image. */
export interface Packed {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
  readonly frames: 1
}

type Packer = (image: Sharp, plan: Pick<JobPlan, 'icoSizes'>) => Promise<Packed>

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 }

/**
 * ICO: the transformed image, encoded once as a PNG (the encode step set it up), then one
 * square PNG per size, the image contained and centred on transparency, largest last. The
 * sizes are encoded one after another, so only one is held besides the source.
 */
async function packAsIco(image: Sharp, plan: Pick<JobPlan, 'icoSizes'>): Promise<Packed> {
  const source = await image.toBuffer()
  const sizes = plan.icoSizes ?? []
  const images = []
  for (const size of sizes) {
    const png = await sharp(source)
      .resize({ width: size, height: size, fit: 'contain', background: TRANSPARENT })
      .png({ compressionLevel: 9, adaptiveFiltering: true })
      .toBuffer()
    images.push({ width: size, height: size, png })
  }
  const largest = Math.max(...sizes)
  return { data: packIco(images), width: largest, height: largest, frames: 1 }
}

/** One packer per container sharp cannot write; `satisfies` makes a missing one a compile error. */
export const PACKERS = { ico: packAsIco } satisfies Record<PackedFormat, Packer>
