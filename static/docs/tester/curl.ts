import { KEY_HEADER, shellQuote } from '../../kit/api/curl.ts'
import type { SentRequest } from './request.ts'

/**
 * The curl command that sends what the tester sent, as multipart form fields; `saveAs` writes an
 * image answer to a file. The key is named, never shown (KEY_HEADER).
 */
export function curlCommand(request: SentRequest, saveAs?: string): string {
  const parts = ['curl']
  const headers = request.headers.flatMap(([name, value]) => ['-H', shellQuote(`${name}: ${value}`)])
  if (request.apiKey) headers.push('-H', KEY_HEADER)
  if (request.method === 'GET') parts.push('-i', ...headers)
  else {
    if (request.file) parts.push('-F', shellQuote(`file=@${request.file.name}`))
    if (request.overlay) parts.push('-F', shellQuote(`overlay=@${request.overlay.name}`))
    for (const [name, value] of request.fields) parts.push('-F', shellQuote(`${name}=${value}`))
    parts.push(...headers, '-D', '-')
    if (saveAs) parts.push('-o', shellQuote(saveAs))
  }
  parts.push(shellQuote(request.url))
  return parts.join(' ')
}
