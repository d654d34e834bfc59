/** Reads `filename*=UTF-8''…` (preferred) or `filename="…"` from a Content-Disposition header. */
export function filenameFromContentDisposition(header: string | null): string | undefined {
  if (!header) return undefined
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      return undefined
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header)
  return plain ? (plain[1] ?? plain[2])!.replace(/\\(.)/g, '$1') : undefined
}

/** The upload's name without directories, extension or control characters; "image" if nothing is left. */
export function baseName(filename: string | undefined): string {
  const last = (filename ?? '').split(/[\\/]/).pop() ?? ''
  const withoutExtension = last.includes('.') ? last.slice(0, last.lastIndexOf('.')) : last
  const clean = withoutExtension.replace(/[\u0000-\u001f\u007f"]/g, '').trim()
  return clean === '' ? 'image' : clean.slice(0, 200)
}

/** `inline` with an ASCII fallback name and, when needed, the RFC 8187 UTF-8 form. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_')
  if (ascii === name) return `inline; filename="${name}"`
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}
