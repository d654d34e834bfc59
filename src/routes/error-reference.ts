import { en } from '../i18n.ts'
import { ERROR_CATALOGUE, ERROR_CODES } from '../errors/catalogue.ts'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** The page every problem `type` links to: one anchor per code, generated from the catalogue. */
export function renderErrorReference(): string {
  const rows = ERROR_CODES.map((code) => {
    const text = en.errors[code]
    return `<tr id="${code}"><td><code>${code}</code></td><td>${ERROR_CATALOGUE[code].status}</td><td>${escapeHtml(text.title)}</td><td>${escapeHtml(text.description)}</td></tr>`
  }).join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>imgapi errors</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left;vertical-align:top}tr:target{background:#fff6d5}code{font-size:.9em}</style>
</head><body>
<h1>Errors</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, a stable <code>code</code> and the <code>requestId</code> (also in the <code>X-Request-Id</code> header). Invalid options also list each field in <code>errors</code>.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
<p><a href="/">Home</a> · <a href="/swagger">API reference</a></p>
</body></html>`
}
