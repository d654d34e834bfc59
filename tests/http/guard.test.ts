import { describe, expect, test } from 'bun:test'
import { guard } from '../../src/http/guard.ts'
import { createLogger } from '../../src/log.ts'

function capture() {
  const lines: Record<string, unknown>[] = []
  return { lines, logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) }
}

describe('guard', () => {
  test('passes results through untouched', async () => {
    const { logger, lines } = capture()
    expect(
      guard(
        'h',
        logger,
        (x: number) => x + 1,
        () => -1,
      )(1),
    ).toBe(2)
    expect(
      await guard(
        'h',
        logger,
        async (x: number) => x * 2,
        () => -1,
      )(4),
    ).toBe(8)
    expect(lines).toEqual([])
  })

  test('turns a synchronous throw into the fallback and one error log line naming the hook', () => {
    const { logger, lines } = capture()
    const hook = guard(
      'onAfterResponse',
      logger,
      (): number => {
        throw new TypeError('Invalid URL')
      },
      () => 0,
    )
    expect(hook()).toBe(0)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'hook failed', hook: 'onAfterResponse' })
    expect(String(lines[0]!.error)).toContain('Invalid URL')
  })

  test('turns a rejection into the fallback, so no unhandled rejection can end the process', async () => {
    const { logger, lines } = capture()
    const hook = guard(
      'onRequest',
      logger,
      async (): Promise<string> => {
        throw new Error('boom')
      },
      () => 'answered',
    )
    expect(await hook()).toBe('answered')
    expect(lines[0]).toMatchObject({ level: 'error', hook: 'onRequest' })
  })
})
