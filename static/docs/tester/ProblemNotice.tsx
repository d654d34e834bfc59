import { env } from '../../kit/env.ts'

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
export function ProblemNotice({ problem }: { problem: Problem }) {
  const { t, data } = env()
  const href = `${data.referencePath}#${problem.code ?? ''}`
  return (
    <div class="problem" role="alert">
      <p>
        {t('site.tester.problem')}{' '}
        <a href={href}>
          <code translate={false}>{problem.code ?? ''}</code>
        </a>
        {problem.title ? ` ${problem.title}` : ''}
      </p>
      {problem.detail && (
        <p class="problem-detail" lang="en" dir="ltr">
          {problem.detail}
        </p>
      )}
      {problem.errors?.length ? (
        <ul class="problem-errors" lang="en" dir="ltr">
          {problem.errors.map((error, i) => (
            <li key={i}>
              <code translate={false}>{error.name}</code> {error.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        <a href={href}>{t('site.tester.problemLink')}</a>
      </p>
    </div>
  )
}
