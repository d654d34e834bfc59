/** An upload as the compress route receives it, however it was sent. */
export interface Upload {
  readonly bytes: Uint8Array
  readonly filename?: string
  /** Text fields of a multipart body; empty for a raw body. */
  readonly fields: ReadonlyMap<string, string>
  /** A watermark sent in the multipart field `overlay`. */
  readonly overlay?: Uint8Array
}
