/*
 * What is said about one file. A JSON line carries the same facts as the API's JSON envelope
 * (describeResult), so a script reads the same names from both; the human line is the short form.
 */
import { basename, extname } from 'node:path'
import { describeResult } from '../http/image-response.ts'
import type { CompressResult } from '../image/compress.ts'
import { formatBytes } from './byte-sizes.ts'

export type FileOutcome =
  | {
      readonly file: string
      readonly output?: string
      readonly written: boolean
      readonly result: CompressResult
    }
  | { readonly file: string; readonly code: string; readonly detail: string }

export const failed = (outcome: FileOutcome) => 'code' in outcome

export function jsonLine(outcome: FileOutcome): string {
  if ('code' in outcome)
    return JSON.stringify({
      file: outcome.file,
      status: 'failed',
      code: outcome.code,
      detail: outcome.detail,
    })
  const { result, file } = outcome
  const facts = describeResult(result, basename(file, extname(file)))
  return JSON.stringify({
    file,
    status: 'done',
    output: outcome.output ?? null,
    written: outcome.written,
    ...facts,
    saved: result.inputBytes - result.data.length,
  })
}

const KEPT: Record<string, string> = {
  original: 'kept the original (an encode would not have been smaller)',
  optimised: 'kept the original pixels, losslessly optimised (smaller than an encode)',
}

export function humanLine(outcome: FileOutcome): string {
  if ('code' in outcome) return `${outcome.file}: ${outcome.code}: ${outcome.detail}`
  const { result } = outcome
  const target = outcome.output ?? 'standard output'
  const sizes = `${formatBytes(result.inputBytes)} -> ${formatBytes(result.data.length)}`
  const ratio = result.inputBytes
    ? ` (${(((result.data.length - result.inputBytes) / result.inputBytes) * 100).toFixed(1)}%)`
    : ''
  const quality = result.quality === undefined ? '' : ` q${result.quality}`
  const similarity = result.similarity
    ? ` ${result.similarity.metric} ${result.similarity.score.toFixed(4)}`
    : ''
  const kept = KEPT[result.kind]
  const how = kept ? `; ${kept}` : ` ${result.outputFormat}${quality}${similarity}`
  return `${outcome.file} -> ${target}${outcome.written ? '' : ' (not written)'}  ${sizes}${ratio}${how}`
}
