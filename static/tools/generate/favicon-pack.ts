/*
 * What a site needs for its icon in browsers, on home screens and as an installed app, every
 * file a variant of one POST /api/compress (the image uploaded once): a multi-size ICO, PNGs at
 * the sizes browsers and platforms ask for, and a maskable icon whose picture stays inside the
 * safe circle (80% of its width), padded with the background colour. The manifest and the
 * <link> lines name them.
 *
 * Browsers draw a favicon on their own background, so those PNGs keep the picture's
 * transparency. iOS shows a transparent apple-touch-icon on black and Android's masks show no
 * transparency either: for those two the server makes the square picture at the size it takes
 * in the icon, and the page lays it, pixel for pixel, on a square of the background colour
 * (layOn in pixels.ts), so no pixel of theirs is transparent. `background` applies to every
 * output of the request, and a PNG keeps transparency whatever it is, so the server cannot.
 * Their PNGs are the browser's encoder's, larger than the server's (about twice, for a photo);
 * a per-variant way to flatten a PNG onto a colour would let the server make them whole.
 */

/** How a picture that is not square becomes square. */
export type Squaring = 'centre' | 'attention' | 'contain'

export interface PackSettings {
  readonly name: string
  readonly shortName: string
  readonly background: string
  readonly theme: string
  readonly squaring: Squaring
  /** Where the files will be served from: "/" for the site's root. */
  readonly base: string
}

export interface IconFile {
  readonly name: string
  /** The side in pixels; an ICO holds ICO_SIZES. */
  readonly size: number
  readonly maskable?: boolean
  /** Opaque: its picture (pictureSide) laid on the background colour by the page. */
  readonly opaque?: boolean
}

export const ICO_SIZES = [16, 32, 48]

export const ICON_FILES: readonly IconFile[] = [
  { name: 'favicon.ico', size: 48 },
  { name: 'favicon-32x32.png', size: 32 },
  { name: 'apple-touch-icon.png', size: 180, opaque: true },
  { name: 'icon-192.png', size: 192 },
  { name: 'icon-512.png', size: 512 },
  { name: 'icon-maskable-512.png', size: 512, maskable: true, opaque: true },
]

/** The maskable icon's picture fills the circle platforms keep: 80% of the side, padded evenly. */
export function maskablePadding(size: number): number {
  return Math.ceil((size - Math.floor(size * 0.8)) / 2)
}

/** The side of the picture in the icon: all of it, but 80% of it (padded evenly) for a maskable one. */
export function pictureSide(file: IconFile): number {
  return file.size - 2 * (file.maskable ? maskablePadding(file.size) : 0)
}

/**
 * The options for one file, as its request alone would send them (for an opaque icon, its
 * picture: pictureSide). Small logos are enlarged (withoutEnlargement=false): an app icon is 512
 * pixels whatever its source. The ICO squares its picture itself, centred on transparency. The
 * colour of contain's bands goes with every file, the ICO too (which shows none): the options
 * all the variants of a request share must be the same.
 */
export function iconQuery(file: IconFile, settings: PackSettings): URLSearchParams {
  const query = file.name.endsWith('.ico')
    ? new URLSearchParams({ format: 'ico', icoSizes: ICO_SIZES.join(',') })
    : new URLSearchParams({ format: 'png', ...squared(pictureSide(file), settings) })
  // The ICO fits a whole picture on transparency by itself, without bands of colour.
  if (file.name.endsWith('.ico') && settings.squaring !== 'contain')
    for (const [k, v] of Object.entries(squared(256, settings))) query.set(k, v)
  if (settings.squaring === 'contain') query.set('background', settings.background)
  return query
}

function squared(side: number, settings: PackSettings): Record<string, string> {
  const fit = settings.squaring === 'contain' ? 'contain' : 'cover'
  const options: Record<string, string> = {
    width: String(side),
    height: String(side),
    fit,
    withoutEnlargement: 'false',
  }
  if (settings.squaring === 'attention') options.position = 'attention'
  return options
}

const href = (settings: PackSettings, name: string) => `${settings.base.replace(/\/*$/, '/')}${name}`

export function manifestOf(settings: PackSettings): string {
  const icon = (name: string, size: number, purpose?: string) => ({
    src: href(settings, name),
    sizes: `${size}x${size}`,
    type: 'image/png',
    ...(purpose ? { purpose } : {}),
  })
  const manifest = {
    name: settings.name,
    short_name: settings.shortName || settings.name,
    icons: [
      icon('icon-192.png', 192),
      icon('icon-512.png', 512),
      icon('icon-maskable-512.png', 512, 'maskable'),
    ],
    start_url: settings.base.replace(/\/*$/, '/'),
    display: 'standalone',
    theme_color: settings.theme,
    background_color: settings.background,
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** The lines for the page's <head>. */
export function linkMarkup(settings: PackSettings): string {
  const sizes = ICO_SIZES.map((size) => `${size}x${size}`).join(' ')
  return [
    `<link rel="icon" href="${attribute(href(settings, 'favicon.ico'))}" sizes="${sizes}">`,
    `<link rel="icon" href="${attribute(href(settings, 'favicon-32x32.png'))}" type="image/png" sizes="32x32">`,
    `<link rel="apple-touch-icon" href="${attribute(href(settings, 'apple-touch-icon.png'))}">`,
    `<link rel="manifest" href="${attribute(href(settings, 'site.webmanifest'))}">`,
    `<meta name="theme-color" content="${attribute(settings.theme)}">`,
  ].join('\n')
}
