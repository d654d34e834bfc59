import { expect } from 'bun:test'
import type { Api } from './api.ts'
import {
  compressTo,
  rgba,
  type Fields,
  type OutputFormat,
  type Output,
  type Sample,
} from './readback-samples.ts'

/*
 * The shape of an option read-back case, how one runs, and the checks cases share. A case sends
 * a few requests for one input and reads the effect of an option back from the outputs.
 */

export interface ReadbackCase {
  /** The behaviour, as the test's name. */
  readonly behaviour: string
  readonly format: OutputFormat
  /** One request per entry; see compressTo for the fields every request gets. */
  readonly requests: readonly Fields[] | ((sample: Sample) => readonly Fields[])
  /** Send one of the sample's derived copies instead of the sample itself. */
  readonly input?: 'tagged' | 'small'
  /** Inputs the behaviour is observable on; all when absent. */
  readonly when?: (sample: Sample) => boolean
  readonly check: (outputs: readonly Output[], sample: Sample) => void | Promise<void>
}

/** Sends a case's requests for one sample, at once, and checks what comes back. */
export async function runCase(api: Api, c: ReadbackCase, sample: Sample): Promise<void> {
  const requests = typeof c.requests === 'function' ? c.requests(sample) : c.requests
  const input = c.input ? sample[c.input] : sample.bytes
  const outputs = await Promise.all(requests.map((fields) => compressTo(api, c.format, input, fields)))
  await c.check(outputs, sample)
}

export const only = (outputs: readonly Output[]) => outputs[0]!
export const bytesOf = (outputs: readonly Output[]) => outputs.map((o) => o.bytes.length)

/** The two outputs are different files: the option changed what the encoder did. */
export function expectDifferentFiles(a: Output, b: Output) {
  expect(Buffer.compare(a.bytes, b.bytes)).not.toBe(0)
}

/** Every pixel equals the reference, except colour under full transparency, which is invisible. */
export async function expectSamePixels(output: Output, sample: Sample) {
  const got = await rgba(output.bytes)
  const ref = (output.metadata.pages ?? 1) > 1 ? sample.animatedReference! : sample.reference
  expect([got.width, got.height]).toEqual([ref.width, ref.height])
  let differing = 0
  for (let i = 0; i < ref.data.length; i += 4) {
    if (ref.data[i + 3] === 0 && got.data[i + 3] === 0) continue
    for (let c = 0; c < 4; c++) if (got.data[i + c] !== ref.data[i + c]) differing++
  }
  expect(differing).toBe(0)
}

export async function pixelAt(output: Output, x: number, y: number): Promise<number[]> {
  const { data, width } = await rgba(output.bytes)
  return [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)]
}

/** Within `tolerance` of opaque red, allowing for lossy encoders. */
export function expectRed(pixel: number[], tolerance: number) {
  const [r, g, b, a] = pixel as [number, number, number, number]
  expect({ r: r >= 255 - tolerance, g: g <= tolerance, b: b <= tolerance, a }).toEqual({
    r: true,
    g: true,
    b: true,
    a: 255,
  })
}
