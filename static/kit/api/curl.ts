import { sourceQuery } from './send.ts'

/** POSIX shell quoting: single quotes, with any single quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** A file field for curl -F, its name in double quotes so a comma or semicolon in it stays a name. */
const formFile = (field: string, file: string) => shellQuote(`${field}=@"${file.replace(/["\\]/g, '\\$&')}"`)

/**
 * The shell variable a curl command reads the API key from. A command that showed the key would
 * leave it in shell history, screenshots and pasted snippets; a masked one would fail with 401.
 */
export const KEY_VARIABLE = 'IMGAPI_KEY'
export const KEY_HEADER = `"Authorization: Bearer $${KEY_VARIABLE}"`

export interface CurlRequest {
  /** The image's file name; or `url`, the address the server fetches it from. */
  readonly file?: string
  readonly url?: string
  readonly query: URLSearchParams
  readonly output: string
  readonly keyRequired: boolean
  /** The watermark's file, sent beside the image as the multipart field `overlay`. */
  readonly overlay?: string
}

/**
 * The curl command that sends what the tools sent: the raw image (or, with a watermark, both
 * files as multipart fields; or, for an image named by its address, no body and the url first in
 * the query) and the same query, so it returns the same bytes. The key is left in a variable,
 * never written into a command that may end up in a shell's history.
 */
export function curlCommand(request: CurlRequest): string {
  const query = (request.url ? sourceQuery(request.url, request.query) : request.query).toString()
  const url = `${location.origin}/api/compress${query ? `?${query}` : ''}`
  const parts = ['curl', '-sS', '--fail-with-body']
  if (request.url) parts.push('-X', 'POST')
  else if (request.overlay)
    parts.push('-F', formFile('file', request.file!), '-F', formFile('overlay', request.overlay))
  else
    parts.push(
      '--data-binary',
      `@${shellQuote(request.file!)}`,
      '-H',
      shellQuote('Content-Type: application/octet-stream'),
    )
  if (request.keyRequired) parts.push('-H', KEY_HEADER)
  parts.push('-o', shellQuote(request.output), shellQuote(url))
  return parts.join(' ')
}

/** The folder script of the examples, run with these options into a folder of its own. */
export function folderCommand(query: URLSearchParams, keyRequired: boolean): string {
  const key = keyRequired ? `${KEY_VARIABLE}=… ` : ''
  return `${key}IMGAPI_URL=${shellQuote(location.origin)} bash folder.sh ./images ${shellQuote(query.toString())} ./images-imgapi`
}
