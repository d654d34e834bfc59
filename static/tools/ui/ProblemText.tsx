import type { Problem } from '../api/problem.ts'
import { env } from '../env.ts'

/** Why a file failed: the server's title and detail, and where the reference explains the code. */
export function ProblemText({ problem }: { problem: Problem }) {
  const { t, data } = env()
  const documented =
    /^[A-Z_]+$/.test(problem.code) && !problem.code.startsWith('HTTP_') && problem.code !== 'NETWORK'
  return (
    <p class="problem-text">
      <strong>{problem.title}</strong>
      {problem.detail && <> {problem.detail}</>}{' '}
      {documented && (
        <a href={`${data.referencePath}#${problem.code}`}>
          {t('common.whatItMeans')} <code translate={false}>{problem.code}</code>
        </a>
      )}
    </p>
  )
}
