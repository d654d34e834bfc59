import { describe, expect, test } from 'bun:test'
import { isolateTokens } from '../../src/docs/tokens.ts'

describe('identifiers in prose', () => {
  test('wraps header names, option values, media types and paths, not the words or punctuation around them', () => {
    expect(
      isolateTokens('<p>See X-Resized-To-Fit, auto-high (multipart/form-data) at /api/formats.</p>'),
    ).toBe(
      '<p>See <span class="token" translate="no">X-Resized-To-Fit</span>, <span class="token" translate="no">auto-high</span> ' +
        '(<span class="token" translate="no">multipart/form-data</span>) at <span class="token" translate="no">/api/formats</span>.</p>',
    )
    expect(isolateTokens('<p>one of GET /api/health, POST /api/compress</p>')).toBe(
      '<p>one of <span class="token" translate="no">GET /api/health</span>, ' +
        '<span class="token" translate="no">POST /api/compress</span></p>',
    )
    expect(isolateTokens('<p>با quality=auto و ۲۰ MiB</p>')).toBe(
      '<p>با <span class="token" translate="no">quality=auto</span> و ۲۰ MiB</p>',
    )
  })

  test('leaves tags, attributes, code, preformatted text and form controls as they are', () => {
    const untouched = [
      '<td data-label="X-Ignored-Options"><code translate="no">X-Ignored-Options</code></td>',
      '<pre><code>curl -F file=@photo.jpg</code></pre>',
      '<select><option value="auto-high">auto-high</option></select>',
      '<datalist id="a-b"><option value="auto-low"><option value="auto-high"></datalist>',
      '<p>plain words, 1 to 100, e.g. this</p>',
      // Longer than a phone's line: left to wrap.
      '<p>draft-ietf-httpapi-ratelimit-headers-10</p>',
    ]
    for (const markup of untouched) expect(isolateTokens(markup)).toBe(markup)
    // After a datalist whose options have no end tags, text is processed again.
    expect(isolateTokens('<datalist><option value="a"></datalist><p>auto-low</p>')).toBe(
      '<datalist><option value="a"></datalist><p><span class="token" translate="no">auto-low</span></p>',
    )
  })
})
