import type { AppError } from '../errors/app-error.ts'
import { errorStatus, errorTypeUri } from '../errors/catalogue.ts'
import { clip } from '../errors/echo.ts'
import { negotiateLanguage, translator, type LanguageCode } from '../i18n.ts'
import { requestPath } from './request-target.ts'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

/** RFC 9457 problem details: the single error shape of the whole API. */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  code: string
  requestId: string
  instance?: string
  errors?: { name: string; reason: string }[]
  /** How many more invalid fields there were than `errors` lists. */
  errorsOmitted?: number
  /** TARGET_UNREACHABLE: the smallest output the search reached. */
  smallestBytes?: number
  /** SOURCE_FAILED: what the URL source's origin answered. */
  originStatus?: number
}

/** The language of the problem's title: the caller's Accept-Language, when it is published. */
function languageFor(request?: Request): LanguageCode {
  return negotiateLanguage(request?.headers.get('accept-language') ?? null)
}

export function toProblem(error: AppError, requestId: string, request?: Request): Problem {
  const language = languageFor(request)
  const problem: Problem = {
    type: errorTypeUri(error.code),
    title: translator(language)(`errors.${error.code}.title`),
    status: errorStatus(error.code),
    detail: error.detail,
    code: error.code,
    requestId,
  }
  if (request) problem.instance = clip(requestPath(request))
  if (error.errors) problem.errors = [...error.errors]
  if (error.omittedErrors > 0) problem.errorsOmitted = error.omittedErrors
  if (error.smallestBytes !== undefined) problem.smallestBytes = error.smallestBytes
  if (error.originStatus !== undefined) problem.originStatus = error.originStatus
  return problem
}

export function problemResponse(error: AppError, requestId: string, request?: Request): Response {
  const problem = toProblem(error, requestId, request)
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: {
      'content-type': PROBLEM_CONTENT_TYPE,
      'content-language': languageFor(request),
      'cache-control': 'no-store',
      ...error.headers,
    },
  })
}
