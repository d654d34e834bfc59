import { expect } from 'bun:test'
import type { ReadbackCase } from './readback-runner.ts'
import { FORMAT_NAME as NAME, OUTPUTS, WIDTH, type OutputFormat } from './readback-samples.ts'

/*
 * Every (format, option) pair where the option does not apply must be listed in
 * X-Ignored-Options, never dropped silently; every pair where it applies must not be. The
 * table is the API's documentation, written out independently of the service's formats table.
 */

type FormatOption =
  'quality' | 'effort' | 'lossless' | 'progressive' | 'chromaSubsampling' | 'smartSubsample' | 'metadata'

const APPLIES: Record<OutputFormat, readonly FormatOption[]> = {
  jpeg: ['quality', 'effort', 'progressive', 'chromaSubsampling', 'metadata'],
  png: ['quality', 'effort', 'lossless', 'progressive', 'metadata'],
  webp: ['quality', 'effort', 'lossless', 'smartSubsample', 'metadata'],
  avif: ['quality', 'effort', 'lossless', 'chromaSubsampling', 'metadata'],
  gif: ['effort', 'progressive'],
  tiff: ['quality', 'lossless', 'metadata'],
}

/** A value that asks for something, and is valid for every format that has the option. */
const ASKING: Record<FormatOption, string> = {
  quality: '50',
  effort: '1',
  lossless: 'true',
  progressive: 'true',
  chromaSubsampling: '4:4:4',
  smartSubsample: 'true',
  metadata: 'keep',
}

/** On opaque inputs: transparency changes what applies (TIFF stores it losslessly), tested below. */
function pairCase(format: OutputFormat, option: FormatOption): ReadbackCase {
  const applies = APPLIES[format].includes(option)
  const asked = `${option}=${ASKING[option]}`
  return {
    behaviour: applies
      ? `${NAME[format]} output of an opaque image uses ${asked}: not listed in X-Ignored-Options`
      : `${NAME[format]} output lists ${asked} in X-Ignored-Options`,
    format,
    requests: [{ [option]: ASKING[option] }],
    when: (s) => !s.hasAlpha,
    check: ([o]) => expect(o!.ignored.includes(option)).toBe(!applies),
  }
}

const lossless = (format: OutputFormat, option: FormatOption): ReadbackCase => ({
  behaviour: `${NAME[format]} output with lossless=true lists ${option} in X-Ignored-Options`,
  format,
  requests: [{ lossless: 'true', [option]: ASKING[option] }],
  check: ([o]) => expect(o!.ignored).toContain(option),
})

const CONDITIONAL: ReadbackCase[] = [
  ...(['png', 'webp', 'avif', 'tiff'] as const).map((format) => lossless(format, 'quality')),
  lossless('avif', 'chromaSubsampling'),
  lossless('png', 'effort'),
  lossless('webp', 'smartSubsample'),
  ...OUTPUTS.map((format): ReadbackCase => ({
    behaviour: `${NAME[format]} output lists a background it does not use (nothing to flatten or letterbox)`,
    format,
    requests: [{ background: '#ff0000' }],
    check: ([o], s) => expect(o!.ignored.includes('background')).toBe(!(format === 'jpeg' && s.hasAlpha)),
  })),
  {
    behaviour: 'fit=fill with only a width follows the aspect ratio and lists fit in X-Ignored-Options',
    format: 'png',
    requests: [{ fit: 'fill' }],
    when: (s) => s.width >= WIDTH,
    check: ([o], s) => {
      expect(o!.ignored).toContain('fit')
      expect(Math.abs(o!.metadata.height! - (s.height * WIDTH) / s.width)).toBeLessThanOrEqual(1)
    },
  },
  {
    behaviour: 'withoutEnlargement=false with no width or height is listed in X-Ignored-Options',
    format: 'png',
    requests: [{ width: undefined, withoutEnlargement: 'false' }],
    when: (s) => s.width * s.height <= 400 * 400,
    check: ([o]) => expect(o!.ignored).toContain('withoutEnlargement'),
  },
]

const OPTIONS = Object.keys(ASKING) as FormatOption[]

export const IGNORED_CASES: readonly ReadbackCase[] = [
  ...OUTPUTS.flatMap((format) => OPTIONS.map((option) => pairCase(format, option))),
  ...CONDITIONAL,
]

/**
 * The same table as the tunables GET /api/formats must publish (metadata is a format flag
 * there), plus minQuality, the floor every format's byte target (maxBytes) keeps.
 */
export const publishedTunables = (format: OutputFormat): string[] => [
  ...APPLIES[format].filter((option) => option !== 'metadata'),
  'minQuality',
]
