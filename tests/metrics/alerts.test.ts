import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startApi } from '../helpers/api.ts'
import { ROOT } from '../helpers/paths.ts'
import { requireProgram } from '../helpers/services.ts'

/*
 * The alerting rules the README offers (static/examples/alerts.yml): Prometheus's own rule
 * tests (tests/metrics/alerts.test.yml) show each alert firing on the series imgapi exports
 * when its trouble happens and staying quiet on a healthy instance's; and every series the
 * rules read is one the server exports, so a renamed metric cannot leave an alert silent.
 */
const SUITE = 'the alerting rules'
const RULES = join(ROOT, 'static/examples/alerts.yml')
const PROMTOOL = requireProgram('promtool', 'prometheus', SUITE)

describe(SUITE, () => {
  test.if(PROMTOOL !== undefined)('pass promtool check rules and promtool test rules', () => {
    const check = Bun.spawnSync([PROMTOOL!, 'check', 'rules', RULES])
    expect(check.stdout.toString() + check.stderr.toString()).toContain('SUCCESS')
    const run = Bun.spawnSync([PROMTOOL!, 'test', 'rules', join(import.meta.dir, 'alerts.test.yml')])
    expect({ code: run.exitCode, output: run.stdout.toString() + run.stderr.toString() }).toEqual({
      code: 0,
      output: expect.stringContaining('SUCCESS'),
    })
  })

  test('read only series the server exports', async () => {
    const rules = await Bun.file(RULES).text()
    const named = new Set([...rules.matchAll(/\b(imgapi_[a-z_]+)/g)].map((m) => m[1]!))
    expect(named.size).toBeGreaterThan(5)
    const api = await startApi()
    const exported = await (await api.fetch('/metrics')).text()
    for (const name of named) expect([name, exported.includes(`\n${name}`)]).toEqual([name, true])
  })
})
