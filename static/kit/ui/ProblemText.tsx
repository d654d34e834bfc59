import type { Problem } from '../api/problem.ts'
import { env } from '../env.ts'
import { problemWords } from './problem-words.ts'

/**
 * Why a file failed: a title, what to do in the page's own words on a line of its own, and where
 * the reference explains the code. `query` is what the file was sent with, and `fromUrl` whether
 * the server fetched it from its address, for advice that depends on them.
 */
export function ProblemText({
  problem,
  query,
  fromUrl,
}: {
  problem: Problem
  query?: URLSearchParams
  fromUrl?: boolean
}) {
  const { t, data } = env()
  const { title, detail } = problemWords(problem, query, fromUrl)
  const documented =
    /^[A-Z_]+$/.test(problem.code) && !problem.code.startsWith('HTTP_') && problem.code !== 'NETWORK'
  return (
    <div class="problem-text">
      <p class="problem-title">
        <strong>{title}</strong>
      </p>
      {detail && <p class="problem-detail">{detail}</p>}
      {documented && (
        <p class="problem-link">
          <a href={`${data.referencePath}#${problem.code}`}>
            {t('common.whatItMeans')}{' '}
            <code dir="ltr" translate={false}>
              {problem.code}
            </code>
          </a>
        </p>
      )}
    </div>
  )
}
