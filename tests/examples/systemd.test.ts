import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BINARY } from '../helpers/api.ts'
import { childPids } from '../helpers/leftover-processes.ts'
import { fixture, ROOT } from '../helpers/paths.ts'
import { rawBody } from '../helpers/requests.ts'
import { requireProgram, waitUntil } from '../helpers/services.ts'
import { BUN_MAX_HEADER_BYTES } from '../../src/settings.ts'
import { EXAMPLES } from './example-runner.ts'

/*
 * The README's systemd unit (static/examples/imgapi.service). These machines have no systemd
 * as PID 1, so the unit cannot be started here: it is checked with systemd-analyze (verify,
 * and security, whose exposure score the README quotes), and its syscall filter against the
 * system calls a real server makes, traced with strace while it serves every kind of job.
 */
const SUITE = 'the systemd unit'
const UNIT = join(EXAMPLES, 'imgapi.service')
const ANALYZE = requireProgram('systemd-analyze', 'systemd', SUITE)
const STRACE = requireProgram('strace', 'strace', SUITE)
const dir = mkdtempSync(join(tmpdir(), 'imgapi-unit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The unit with ExecStart pointing at a program that exists here, as verify requires. */
function unitWithExecutable(): string {
  const path = join(dir, 'imgapi.service')
  writeFileSync(path, readFileSync(UNIT, 'utf8').replace(/^ExecStart=.*$/m, `ExecStart=${process.execPath}`))
  return path
}

/** Every system call a set name allows, its nested sets expanded. */
function syscallSet(name: string): Set<string> {
  const out = Bun.spawnSync([ANALYZE!, 'syscall-filter', name]).stdout.toString()
  const names = new Set<string>()
  for (const line of out.split('\n').slice(1)) {
    const entry = line.trim()
    if (!entry || entry.startsWith('#')) continue
    if (entry.startsWith('@')) for (const inner of syscallSet(entry)) names.add(inner)
    else names.add(entry)
  }
  return names
}

describe(SUITE, () => {
  test('is the one the README links to, with the score it quotes', async () => {
    const readme = await Bun.file(join(ROOT, 'README.md')).text()
    expect(readme).toContain('[`static/examples/imgapi.service`](static/examples/imgapi.service)')
    expect(readme).toMatch(/`systemd-analyze security imgapi\.service` rates this unit [\d.]+ \("OK"\)/)
  })

  test.if(ANALYZE !== undefined)(
    'passes systemd-analyze verify and scores at most 3 in systemd-analyze security',
    () => {
      const unit = unitWithExecutable()
      const verify = Bun.spawnSync([ANALYZE!, 'verify', unit])
      expect({ code: verify.exitCode, output: verify.stderr.toString().trim() }).toEqual({
        code: 0,
        output: '',
      })
      const security = Bun.spawnSync([ANALYZE!, 'security', '--offline=true', unit]).stdout.toString()
      const score = Number(/Overall exposure level for imgapi\.service: ([\d.]+)/.exec(security)?.[1])
      expect(score).toBeLessThanOrEqual(3)
    },
  )

  test.if(ANALYZE !== undefined && STRACE !== undefined)(
    'allows every system call a server makes while it serves, workers included',
    async () => {
      const unit = readFileSync(UNIT, 'utf8')
      const allowed = new Set(
        [...unit.matchAll(/^SystemCallFilter=([^~].*)$/gm)].flatMap((m) => [...syscallSet(m[1]!.trim())]),
      )
      const denied = new Set(
        [...unit.matchAll(/^SystemCallFilter=~(.*)$/gm)].flatMap((m) =>
          m[1]!
            .trim()
            .split(/\s+/)
            .flatMap((set) => [...syscallSet(set)]),
        ),
      )
      const trace = join(dir, 'strace.out')
      const server = BINARY
        ? [BINARY]
        : [process.execPath, `--max-http-header-size=${BUN_MAX_HEADER_BYTES}`, join(ROOT, 'src/index.ts')]
      const port = 20000 + Math.floor(Math.random() * 20000)
      const proc = Bun.spawn([STRACE!, '-f', '-qq', '-o', trace, ...server], {
        cwd: dir,
        env: { HOME: dir, IMGAPI_HOST: '127.0.0.1', IMGAPI_PORT: String(port), IMGAPI_WARM_WORKERS: 'true' },
        stdout: 'ignore',
        stderr: 'ignore',
      })
      try {
        const url = `http://127.0.0.1:${port}`
        await waitUntil(
          async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.status === 200,
          'the traced server',
          60_000,
        )
        const jobs: [string, string, string?][] = [
          ['png-tiny-1x1-prophoto-icc.png', 'format=avif'],
          ['photo-exif-orientation-6.jpg', 'format=webp&quality=auto'],
          ['heic-irot-exif-orientation-6.heic', 'format=jpeg'],
          ['jxl-exif-orientation-6-generic-rgb.jxl', 'format=png'],
          ['gif-animated-10frames.gif', 'format=webp'],
        ]
        for (const [file, query] of jobs) {
          const response = await fetch(`${url}/api/compress?${query}`, rawBody(await fixture(file)))
          expect([file, response.status]).toEqual([file, 200])
        }
        expect((await fetch(`${url}/docs/`)).status).toBe(200)
        expect((await fetch(`${url}/metrics`)).status).toBe(200)
      } finally {
        // strace ends when what it traces does: the server (SIGINT stops it without the drain
        // delay), and its workers once their stdin closes.
        for (const pid of childPids(proc.pid)) process.kill(pid, 'SIGINT')
        await proc.exited
      }
      const used = new Set(
        readFileSync(trace, 'utf8')
          .split('\n')
          .map((line) => /^\d+\s+([a-z0-9_]+)\(/.exec(line)?.[1])
          .filter((name): name is string => name !== undefined),
      )
      expect(used.size).toBeGreaterThan(30)
      const refused = [...used].filter((name) => !allowed.has(name) || denied.has(name)).sort()
      expect(refused).toEqual([])
    },
    120_000,
  )
})
