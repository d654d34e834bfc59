import type { OptionInput } from '../options/parse.ts'

/**
 * A compress request's body as the route receives it, however it was sent: the image (absent
 * when the body names it by url instead), and the options the body carried.
 */
export interface Upload {
  /** The image's bytes; undefined when the body sent none (a url names it, or it is missing). */
  readonly bytes?: Uint8Array
  readonly filename?: string
  /** Options from the body: a multipart body's text fields, or a JSON body's members. */
  readonly fields: ReadonlyMap<string, OptionInput>
  /** A watermark sent in the multipart field `overlay`. */
  readonly overlay?: Uint8Array
  readonly kind: 'multipart' | 'json' | 'raw'
}
