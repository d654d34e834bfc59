import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ERROR_CATALOGUE, ERROR_CODES } from '../src/errors/catalogue.ts'
import { JPEG_TRELLIS } from '../src/formats/format-table.ts'
import { AUTO_LEVELS, MIN_QUALITY } from '../src/image/search/index.ts'
import { SVG_LIMITS } from '../src/image/svg/index.ts'
import { AUTO_QUALITIES, OPTION_NAMES } from '../src/options/schema.ts'
import { SETTINGS } from '../src/settings.ts'
import { ROOT } from './helpers/paths.ts'

const readme = await Bun.file(join(ROOT, 'README.md')).text()
const rows = readme.split('\n').filter((line) => line.startsWith('|'))
/** The encoder-settings study's README: its table and what it concludes. */
const settingsStudy = await Bun.file(join(ROOT, 'bench/encoder-settings/README.md')).text()

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

  test('links to the SVG drawing-cost limits, stated beside the screen that enforces them', async () => {
    expect(readme).toContain('(src/image/svg/README.md)')
    const prose = (await Bun.file(join(ROOT, 'src/image/svg/README.md')).text()).replace(/\s+/g, ' ')
    expect(prose).toContain(`at most ${SVG_LIMITS.maxElements} elements`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedElements} drawn elements`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedVertices} path vertices`)
    expect(prose).toContain(`${SVG_LIMITS.maxRenderedTextCharacters} characters of text`)
    expect(prose).toContain(`at most ${SVG_LIMITS.maxFilterRuns} filter primitives`)
    expect(prose).toContain(`exceed ${SVG_LIMITS.maxTextRunCharacters} characters`)
  })

  test('states the JPEG trellis figures that the bench:settings table supports, as the docs do', () => {
    // `| jpeg | <settings> | x<cpu> | x<bytes at 0.95> (n) | x<bytes at 0.98> (n) |`
    const bench = (settings: string) => {
      const row = settingsStudy.split('\n').find((r) => r.startsWith(`| jpeg | ${settings} |`))
      expect(row, settings).toBeDefined()
      return [...row!.matchAll(/x(\d+\.\d+)/g)].map((m) => Number(m[1]))
    }
    const [plainCpu, ...plainBytes] = bench('progressive (the default)')
    const [trellisCpu, ...trellisBytes] = bench('trellis, progressive, scans (effort=1)')
    const savings = trellisBytes.map((bytes, i) => 1 - bytes / plainBytes[i]!)
    expect(savings).toHaveLength(2)
    expect(Math.round(Math.min(...savings) * 100) / 100).toBe(JPEG_TRELLIS.bytesSaved)
    expect(Math.round(trellisCpu! / plainCpu!)).toBe(JPEG_TRELLIS.encoderTimes)
    const percent = `${JPEG_TRELLIS.bytesSaved * 100}%`
    expect(readme.replace(/\s+/g, ' ')).toContain(
      `about ${percent} smaller at equal similarity for about ${JPEG_TRELLIS.encoderTimes} times the encoder's time`,
    )
    expect(settingsStudy.replace(/\s+/g, ' ')).toContain(
      `saves about ${percent} over the progressive default for about ${JPEG_TRELLIS.encoderTimes} times`,
    )
  })

  test("states each auto level's SSIM target and minimum qualities as the search has them", () => {
    for (const level of AUTO_QUALITIES) {
      // The table sits inside a list item, so its rows are indented.
      const row = readme
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line.startsWith(`| \`${level}\` |`))
      expect(row, level).toBeDefined()
      const [ssim, floors] = row!
        .split('|')
        .slice(2, 4)
        .map((cell) => cell.trim())
      expect(Number(ssim), level).toBe(AUTO_LEVELS[level])
      const { jpeg, webp, avif } = MIN_QUALITY
      expect(jpeg[level], level).toBe(webp[level])
      expect(floors, level).toBe(`${jpeg[level]} / ${avif[level]}`)
    }
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
