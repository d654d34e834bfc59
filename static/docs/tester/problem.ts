import type { TFunction } from 'i18next'
import { el } from './dom.ts'

/** The parts of a problem+json answer the tester shows. */
export interface Problem {
  readonly code?: string
  readonly title?: string
  readonly detail?: string
  readonly errors?: readonly { name: string; reason: string }[]
}

/**
 * The error, as the server explained it: its code linked to the reference, the title in the
 * reader's language, and the detail that says what was expected and what was received, with
 * each invalid field. The detail is the server's English, marked so.
 */
export function problemNotice(problem: Problem, referencePath: string, t: TFunction): HTMLElement {
  const href = `${referencePath}#${problem.code ?? ''}`
  const errors = problem.errors?.length
    ? el(
        'ul',
        { class: 'problem-errors', lang: 'en', dir: 'ltr' },
        ...problem.errors.map((error) =>
          el('li', {}, el('code', { translate: 'no' }, error.name), ` ${error.reason}`),
        ),
      )
    : undefined
  return el(
    'div',
    { class: 'problem', role: 'alert' },
    el(
      'p',
      {},
      t('site.tester.problem'),
      ' ',
      el('a', { href }, el('code', { translate: 'no' }, problem.code ?? '')),
      problem.title ? ` ${problem.title}` : '',
    ),
    problem.detail ? el('p', { class: 'problem-detail', lang: 'en', dir: 'ltr' }, problem.detail) : undefined,
    errors,
    el('p', {}, el('a', { href }, t('site.tester.problemLink'))),
  )
}
