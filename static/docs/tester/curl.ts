import type { SentRequest } from './request.ts'

/** POSIX shell quoting: single quotes, with any single quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** The curl command that sends what the tester sent; `saveAs` writes an image answer to a file. */
export function curlCommand(request: SentRequest, saveAs?: string): string {
  const parts = ['curl']
  if (request.method === 'GET') {
    parts.push('-i')
    for (const [name, value] of request.headers) parts.push('-H', shellQuote(`${name}: ${value}`))
  } else {
    if (request.file) parts.push('-F', shellQuote(`file=@${request.file.name}`))
    if (request.overlay) parts.push('-F', shellQuote(`overlay=@${request.overlay.name}`))
    for (const [name, value] of request.fields) parts.push('-F', shellQuote(`${name}=${value}`))
    for (const [name, value] of request.headers) parts.push('-H', shellQuote(`${name}: ${value}`))
    parts.push('-D', '-')
    if (saveAs) parts.push('-o', shellQuote(saveAs))
  }
  parts.push(shellQuote(request.url))
  return parts.join(' ')
}
