import type { Answer } from './send.ts'

/** An answer that is not the image: the API's problem+json, or what the tools found themselves. */
export interface Problem {
  readonly code: string
  readonly title: string
  readonly detail?: string
  readonly status?: number
}

export async function problemOf(answer: Answer): Promise<Problem> {
  try {
    const body = JSON.parse(await answer.body.text()) as Partial<Problem>
    return {
      code: body.code ?? `HTTP_${answer.status}`,
      title: body.title ?? String(answer.status),
      detail: body.detail,
      status: answer.status,
    }
  } catch {
    return { code: `HTTP_${answer.status}`, title: String(answer.status), status: answer.status }
  }
}

/** Seconds to wait before asking again, when the server said so (429 and 503 with Retry-After). */
export function retryAfterSeconds(answer: Answer): number | undefined {
  if (answer.status !== 429 && answer.status !== 503) return undefined
  const header = answer.header('retry-after')
  const seconds = header === null ? NaN : Number(header)
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined
}
