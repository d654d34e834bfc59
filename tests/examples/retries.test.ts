import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startApi, type Api } from '../helpers/api.ts'
import { FIXTURES } from '../helpers/paths.ts'
import {
  busy,
  CURL,
  EXAMPLES,
  gaps,
  GO,
  NODE,
  PHP,
  PHP_CURL,
  problem,
  PYTHON,
  PYTHON_BIN,
  refusingProxy,
  runExample,
  scratchDir,
  testWith,
  type Tool,
} from './example-runner.ts'

/**
 * Every example program that talks to imgapi asks again only when asking again can help: after
 * 429 (rate limited) and 503 (busy), waiting the seconds Retry-After gives. Any other error is
 * final: a 422 (an image that cannot be processed in time, say) would fail the same way again.
 */
interface Example {
  readonly name: string
  readonly tools: readonly Tool[]
  /** The command, run in a directory holding dot.png and album/dot.png. */
  command(): string[]
}

let goBinary = ''
const EXAMPLES_UNDER_TEST: readonly Example[] = [
  {
    name: 'compress.py',
    tools: [PYTHON],
    command: () => [PYTHON_BIN, join(EXAMPLES, 'compress.py'), 'dot.png'],
  },
  {
    name: 'node.mjs',
    tools: [NODE],
    command: () => ['node', join(EXAMPLES, 'node.mjs'), 'dot.png', 'dot.webp'],
  },
  {
    name: 'compress.php',
    tools: [PHP, PHP_CURL],
    command: () => ['php', join(EXAMPLES, 'compress.php'), 'dot.png'],
  },
  { name: 'compress.go', tools: [GO], command: () => [goBinary, 'dot.png'] },
  { name: 'curl.sh', tools: [CURL], command: () => ['bash', join(EXAMPLES, 'curl.sh'), 'dot.png'] },
  { name: 'folder.sh', tools: [CURL], command: () => ['bash', join(EXAMPLES, 'folder.sh'), 'album'] },
]

describe('the examples retry only what may succeed later', () => {
  let api: Api
  const dirs: string[] = []
  beforeAll(async () => {
    api = await startApi({}, { socket: true })
    if (!GO.missing) {
      // Built once, as a reader's `go build` would, so each run below starts at once.
      const module = scratchDir()
      dirs.push(module)
      copyFileSync(join(EXAMPLES, 'compress.go'), join(module, 'compress.go'))
      await runExample(['go', 'mod', 'init', 'example'], module, api.url)
      const build = await runExample(['go', 'build', '-o', 'compress', '.'], module, api.url)
      expect(build.stderr).toBe('')
      goBinary = join(module, 'compress')
    }
  }, 180_000)
  afterAll(async () => {
    await api.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /** A fresh directory with the image, and a proxy in front of the server refusing as told. */
  function setUp(refusals: Array<() => Response>) {
    const dir = scratchDir()
    dirs.push(dir)
    copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(dir, 'dot.png'))
    mkdirSync(join(dir, 'album'))
    copyFileSync(join(FIXTURES, 'png-tiny-1x1-prophoto-icc.png'), join(dir, 'album', 'dot.png'))
    return { dir, proxy: refusingProxy(api.url, refusals) }
  }

  for (const example of EXAMPLES_UNDER_TEST) {
    testWith(...example.tools)(
      `${example.name}: after 503 and 429, waits Retry-After each time, then succeeds`,
      async () => {
        const { dir, proxy } = setUp([() => busy(503, 1), () => busy(429, 1)])
        try {
          const run = await runExample(example.command(), dir, proxy.url)
          expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: '' })
          expect(proxy.arrivals.length).toBeGreaterThanOrEqual(3)
          const [afterBusy = 0, afterLimited = 0] = gaps(proxy.arrivals)
          // Retry-After: 1, honoured; timers may fire a few milliseconds early.
          expect(afterBusy).toBeGreaterThanOrEqual(985)
          expect(afterLimited).toBeGreaterThanOrEqual(985)
        } finally {
          proxy.stop()
        }
      },
    )

    testWith(...example.tools)(
      `${example.name}: never asks again after a 422, and reports its problem`,
      async () => {
        const { dir, proxy } = setUp([() => problem(422, 'PROCESSING_TIMEOUT')])
        try {
          const run = await runExample(example.command(), dir, proxy.url)
          expect(run.exitCode).not.toBe(0)
          expect(run.stderr).toContain('PROCESSING_TIMEOUT')
          expect(proxy.arrivals).toHaveLength(1)
        } finally {
          proxy.stop()
        }
      },
    )
  }
})
