import { describe, expect, test } from 'bun:test'
import { gzipSync } from 'node:zlib'
import { assertSelfContainedSvg } from '../../src/image/svg-guard.ts'
import { fixture } from '../helpers/paths.ts'

const svg = (body: string, head = '') =>
  new TextEncoder().encode(
    `<?xml version="1.0"?>${head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">${body}</svg>`,
  )
const check = (bytes: Uint8Array) => () => assertSelfContainedSvg(bytes, 1_000_000)

describe('SVG screening', () => {
  test('accepts same-document references, data: URIs and namespace declarations', () => {
    const body =
      '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="5" height="5"/><use xlink:href="#g"/><image href="data:image/png;base64,iVBORw0KGgo="/>'
    expect(check(svg(body))).not.toThrow()
  })

  test('accepts the standard SVG 1.1 DOCTYPE, which no renderer fetches', () => {
    const head =
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
    expect(check(svg('<rect width="5" height="5"/>', head))).not.toThrow()
  })

  test.each([
    ['an http URL in url()', '<rect fill="url(\'http://example.com/x.svg\')"/>'],
    ['a protocol-relative URL', '<rect fill="url(//example.com/x.svg)"/>'],
    ['a local file in an image href', '<image href="file:///etc/passwd"/>'],
    ['a relative path in xlink:href', '<use xlink:href="other.svg#a"/>'],
    ['an entity-encoded URL', '<image href="&#104;ttp://example.com/a.png"/>'],
    ['a CSS @import', '<style>@import "x.css";</style>'],
    [
      'an XInclude',
      '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>',
    ],
  ])('refuses %s with 415', (_, body) => {
    expect(check(svg(body))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE' }))
  })

  test('refuses entity declarations (XXE, billion laughs)', () => {
    const head = '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    expect(check(svg('<text>&x;</text>', head))).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE' }),
    )
  })

  test('screens compressed SVG (svgz) too', () => {
    const zipped = new Uint8Array(gzipSync(svg('<image href="https://example.com/a.png"/>')))
    expect(check(zipped)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE' }))
  })

  test('refuses an svgz that inflates beyond the limit', () => {
    const zipped = new Uint8Array(gzipSync(svg(`<desc>${'a'.repeat(200_000)}</desc>`)))
    expect(() => assertSelfContainedSvg(zipped, 50_000)).toThrow(
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }),
    )
  })

  test('refuses both hostile SVGs of the fixture set', async () => {
    for (const name of ['bad-svg-external-urls.svg', 'bad-svg-xinclude-etc-passwd.svg']) {
      expect(check(await fixture(name))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE' }))
    }
  })

  test('screens the whole document, however much white space comes before it', () => {
    const padded = new TextEncoder().encode(
      ' '.repeat(5000) +
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.com/a.png"/></svg>',
    )
    expect(check(padded)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA_TYPE' }))
  })

  test('ignores bytes that are not XML', async () => {
    expect(check(await fixture('photo-exif-orientation-6.jpg'))).not.toThrow()
  })
})
