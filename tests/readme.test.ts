import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ERROR_CATALOGUE, ERROR_CODES } from '../src/errors/catalogue.ts'
import { SVG_LIMITS } from '../src/image/svg-limits.ts'
import { OPTION_NAMES } from '../src/options/schema.ts'
import { SETTINGS } from '../src/settings.ts'
import { ROOT } from './helpers/paths.ts'

const readme = await Bun.file(join(ROOT, 'README.md')).text()
const rows = readme.split('\n').filter((line) => line.startsWith('|'))

/** The README's tables are written by hand; these checks keep them true to the code. */
describe('README', () => {
  test('has a configuration row for every setting with its flag, env vars and default', () => {
    for (const spec of Object.values(SETTINGS)) {
      const row = rows.find((r) => r.includes(`\`${spec.flag}\``))
      expect(row, spec.flag).toBeDefined()
      for (const env of spec.env) expect(row, spec.flag).toContain(`\`${env}\``)
      // Derived defaults (CPU count, cache directory) are described in words instead.
      if (spec.default !== '' && spec.flag !== '--workers')
        expect(row, spec.flag).toContain(`\`${spec.default}\``)
    }
  })

  test('has an options row for every option', () => {
    for (const name of OPTION_NAMES)
      expect(
        rows.some((r) => r.includes(`\`${name}\``)),
        name,
      ).toBe(true)
  })

  test('has an errors row for every code with its status', () => {
    for (const code of ERROR_CODES) {
      const row = rows.find((r) => r.startsWith(`| \`${code}\``))
      expect(row, code).toContain(`| ${ERROR_CATALOGUE[code].status} |`)
    }
  })

  test('states the SVG drawing-cost limits the screen enforces', () => {
    const prose = readme.replace(/\s+/g, ' ')
    expect(prose).toContain(`at most ${SVG_LIMITS.maxElements} elements`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedElements} drawn elements`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedVertices} path vertices`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedTextCharacters} characters of text`)
    expect(prose).toContain(`at most ${SVG_LIMITS.maxFilterRuns} filter primitives`)
    expect(prose).toContain(`exceed ${SVG_LIMITS.maxTextRunCharacters} characters`)
  })

  test('shows the nginx configuration the scaling tests run, verbatim', async () => {
    const nginx = await Bun.file(join(ROOT, 'static/examples/nginx.conf')).text()
    expect(readme).toContain('```nginx\n' + nginx + '```')
  })

  test('names every metric /metrics exports', async () => {
    const { createContext } = await import('../src/app.ts')
    const { configWith } = await import('../src/config.ts')
    const context = createContext(configWith({ logLevel: 'silent', redisUrl: 'redis://127.0.0.1:1' }))
    const text = await context.metrics.text()
    context.access.limiter.close()
    const names = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!))
    expect(names.size).toBeGreaterThan(10)
    for (const name of names) expect(readme, name).toContain(`\`${name}\``)
  })

  test('shows the two set-up commands', () => {
    expect(readme).toContain('npm install && npm start')
    expect(readme).toContain('npm test')
  })
})
