import { describe, expect, test } from 'bun:test'
import { chooseEncoding } from '../src/http/compression.ts'
import { acceptQuality, acceptedImageFormats } from '../src/http/negotiate.ts'
import { negotiateLanguage } from '../src/i18n.ts'
import { qualityValues } from '../src/quality-values.ts'

const entry = (value: string, q: number) => ({ value, q })

/** [what the case shows, the header, its entries]. */
const CASES: [string, string, { value: string; q: number }[]][] = [
  [
    'gives an entry without q the weight 1',
    'image/webp, image/avif;level=1',
    [entry('image/webp', 1), entry('image/avif', 1)],
  ],
  ['keeps q=0, the weight that refuses', 'gzip;q=0', [entry('gzip', 0)]],
  [
    'reads a garbled q as 0, so it refuses rather than prefers',
    'br;q=abc, gzip;q=',
    [entry('br', 0), entry('gzip', 0)],
  ],
  [
    'trims the whitespace around entries, names and parameters',
    '  fr-CA ;  q=0.5 ,de\t;q=0.25',
    [entry('fr-ca', 0.5), entry('de', 0.25)],
  ],
  ['reads names and the q parameter case-insensitively', 'Image/WebP;Q=0.7', [entry('image/webp', 0.7)]],
  [
    'takes the q among other parameters, wherever it stands',
    'text/html;charset=utf-8;q=0.3;x=1',
    [entry('text/html', 0.3)],
  ],
  ['reads an empty header as one empty entry, which names nothing', '', [entry('', 1)]],
]

describe('qualityValues', () => {
  for (const [behaviour, header, entries] of CASES)
    test(behaviour, () => {
      expect(qualityValues(header)).toEqual(entries)
    })
})

describe('every negotiation reads q-values the same way', () => {
  test('media types: an upper-case Q and spaces before the parameter still refuse', () => {
    expect(acceptQuality('image/webp ;Q=0', 'image/webp')).toBe(0)
    expect(acceptedImageFormats('image/webp ; q=0')?.has('webp')).toBe(false)
  })

  test('languages: an upper-case Q=0 refuses the language', () => {
    expect(negotiateLanguage('ru;Q=0, tr')).toBe('tr')
  })

  test('encodings: q=0 and a garbled q refuse, a missing q accepts', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip')
    expect(chooseEncoding('br;q=x, GZIP;Q=0.5')).toBe('gzip')
    expect(chooseEncoding('*;q=0')).toBeUndefined()
  })
})
