import type { Logger } from '../log.ts'

/**
 * Wraps a hook so that nothing it throws, synchronously or not, can escape: the error is logged
 * and `fallback` decides the outcome. A throw in an after-response hook once ended the process;
 * a global uncaughtException handler would hide real bugs, so each hook is wrapped instead.
 */
export function guard<A extends unknown[], R>(
  name: string,
  logger: Logger,
  hook: (...args: A) => R,
  fallback: (...args: A) => Awaited<R> | R,
): (...args: A) => R {
  const fail = (error: unknown, args: A) => {
    logger.error('hook failed', {
      hook: name,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    return fallback(...args)
  }
  return (...args: A): R => {
    try {
      const result = hook(...args)
      if (result instanceof Promise) return result.catch((error: unknown) => fail(error, args)) as R
      return result
    } catch (error) {
      return fail(error, args) as R
    }
  }
}
