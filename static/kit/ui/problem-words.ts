import type { Problem } from '../api/problem.ts'
import { env } from '../env.ts'

/**
 * The control each option is set with, as the tools' strings name it: the first of its keys this
 * page has. A refused option is named by its control, never by its name in the API.
 */
const ADJUSTMENTS = [
  'brightness',
  'saturation',
  'hue',
  'contrast',
  'sharpen',
  'blur',
  'greyscale',
  'normalise',
]
const CONTROLS: Readonly<Record<string, readonly string[]>> = {
  format: ['common.outputFormat'],
  quality: ['common.quality'],
  maxBytes: ['compress.target'],
  allowResize: ['compress.allowResize'],
  metadata: ['compress.metadata'],
  width: ['resize.width'],
  height: ['resize.height'],
  fit: ['resize.fit'],
  position: ['resize.positionCover'],
  dpr: ['resize.dpr'],
  withoutEnlargement: ['resize.withoutEnlargement'],
  background: ['resize.background', 'edit.background', 'convert.background', 'favicon.background'],
  icoSizes: ['convert.icoSizes'],
  crop: ['edit.cropTitle'],
  rotate: ['edit.angle'],
  flip: ['edit.flip'],
  flop: ['edit.flop'],
  trim: ['edit.trimThreshold'],
  pad: ['edit.pad'],
  radius: ['edit.radius'],
  overlayPosition: ['edit.watermarkPosition'],
  overlayOpacity: ['edit.watermarkOpacity'],
  overlayWidth: ['edit.watermarkWidth'],
  overlayMargin: ['edit.watermarkMargin'],
  overlayTile: ['edit.watermarkTile'],
  ...Object.fromEntries(ADJUSTMENTS.map((name) => [name, [`edit.adjustName.${name}`]])),
}

/**
 * Codes that read otherwise for an image the server fetched from its address: what came back
 * from there is not a file the reader chose, and the remedy is to check the address.
 */
const FROM_URL: Readonly<Record<string, string>> = {
  MISSING_FILE: 'urlEmpty',
  UNSUPPORTED_MEDIA_TYPE: 'urlNotImage',
  CORRUPT_IMAGE: 'urlCorrupt',
}

function controlOf(option: string): string {
  const { t } = env()
  for (const key of CONTROLS[option] ?? []) if (t(key) !== key) return t(key)
  return option
}

/** The detail for a code in the tools' own words; undefined when the tools have none for it. */
function detailOf(
  problem: Problem,
  query: URLSearchParams | undefined,
  fromUrl: boolean,
): string | undefined {
  const { t, numbers, data } = env()
  if (fromUrl && FROM_URL[problem.code]) return t(`common.problem.${FROM_URL[problem.code]}`)
  // The origin answered with an error of its own: its status says which (404: no image there).
  if (problem.code === 'SOURCE_FAILED' && problem.originStatus !== undefined)
    return t('common.problem.sourceStatus', { status: String(problem.originStatus) })
  const quoted = (text: string) => t('common.quoted', { text })
  if (problem.code === 'TARGET_UNREACHABLE') {
    // Three ways to miss: a size under maxBytes, the same scaled down, or format=auto's level.
    const way = !query?.has('maxBytes')
      ? 'targetLevel'
      : query.get('allowResize') === 'true'
        ? 'targetScaled'
        : 'TARGET_UNREACHABLE'
    return t(`common.problem.${way}`, {
      smallest: numbers.bytes(problem.smallestBytes ?? 0),
      allowResize: quoted(controlOf('allowResize')),
    })
  }
  if (problem.code === 'INVALID_PARAMETER') {
    const options = [...new Set(problem.errors?.map((error) => error.name) ?? [])]
    if (options.length === 0) return undefined
    const settings = new Intl.ListFormat(data.language).format(options.map((name) => quoted(controlOf(name))))
    return t('common.problem.INVALID_PARAMETER', { settings })
  }
  const key = `common.problem.${problem.code}`
  return t(key) === key ? undefined : t(key)
}

/**
 * What a card says about a failure: the server's title (in the reader's language) and, for every
 * code it can answer, a detail in the page's own words, naming controls, not options. The API's
 * own detail is for programs; it shows only for a code this page does not know. A problem the
 * page found itself (no status) already speaks its words. `fromUrl`: the image was named by its
 * address, not sent.
 */
export function problemWords(
  problem: Problem,
  query?: URLSearchParams,
  fromUrl = false,
): { title: string; detail?: string } {
  if (problem.status === undefined) return { title: problem.title, detail: problem.detail }
  return { title: problem.title, detail: detailOf(problem, query, fromUrl) ?? problem.detail }
}
