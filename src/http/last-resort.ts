import type { Logger } from '../log.ts'

/**
 * When even the error handler fails: a fixed problem, built from nothing the request controls,
 * so nothing about the request can make this answer fail too.
 */
export function createLastResort(logger: Logger) {
  return (error: unknown): Response => {
    logger.error('unhandled error', {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    return new Response(
      JSON.stringify({
        type: '/docs/errors#INTERNAL',
        title: 'Internal error',
        status: 500,
        detail: 'an unexpected error occurred',
        code: 'INTERNAL',
      }),
      { status: 500, headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' } },
    )
  }
}
