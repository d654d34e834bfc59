import type { TFunction } from 'i18next'
import type { NumberFormats } from '../../../src/docs/numbers.ts'
import { el } from './dom.ts'

export interface ImageFacts {
  readonly blob: Blob
  readonly format: string
  readonly width?: number
  readonly height?: number
}

/** The picture, or, when this browser cannot show the format (TIFF, for one), its facts instead. */
function picture(
  facts: ImageFacts,
  alt: string,
  t: TFunction,
  numbers: NumberFormats,
  caption: HTMLElement,
): HTMLElement {
  const url = URL.createObjectURL(facts.blob)
  const img = el('img', { src: url, alt, loading: 'lazy', decoding: 'async' })
  const frame = el('div', { class: 'picture' }, img)
  const sizeLine = (width?: number, height?: number) =>
    t('site.tester.sizeLine', {
      size: numbers.bytes(facts.blob.size),
      width: width === undefined ? '?' : numbers.integer(width),
      height: height === undefined ? '?' : numbers.integer(height),
    })
  caption.append(' ', sizeLine(facts.width, facts.height))
  img.addEventListener('load', () => {
    if (facts.width === undefined)
      caption.lastChild!.textContent = ` ${sizeLine(img.naturalWidth, img.naturalHeight)}`
  })
  img.addEventListener('error', () => {
    frame.replaceChildren(
      el('p', { class: 'cannot-show' }, t('site.tester.cannotShow', { format: facts.format.toUpperCase() })),
      el(
        'dl',
        { class: 'facts' },
        el('dt', {}, t('site.tester.format')),
        el('dd', { translate: 'no' }, facts.format),
      ),
    )
  })
  return frame
}

/** Before and after, side by side (never mirrored in right-to-left), with both sizes and the saving. */
export function comparison(
  before: ImageFacts,
  after: ImageFacts,
  t: TFunction,
  numbers: NumberFormats,
): HTMLElement {
  const figure = (facts: ImageFacts, label: string) => {
    const caption = el('figcaption', { dir: document.documentElement.dir }, el('strong', {}, label))
    return el('figure', {}, picture(facts, label, t, numbers, caption), caption)
  }
  const ratio = after.blob.size / before.blob.size
  // A result larger than the input (another format, lossless) says so in words and in its own colour.
  const larger = ratio > 1
  const change = larger
    ? t('site.tester.growth', { percent: numbers.percent(ratio - 1) })
    : t('site.tester.saving', { percent: numbers.percent(1 - ratio) })
  return el(
    'div',
    { class: 'comparison-block' },
    el(
      'div',
      { class: 'comparison', dir: 'ltr' },
      figure(before, t('site.tester.before')),
      figure(after, t('site.tester.after')),
    ),
    el('p', { class: larger ? 'saving larger' : 'saving' }, change),
  )
}
