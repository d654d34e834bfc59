import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { configWith } from '../../src/config.ts'
import { optionFacts } from '../../src/tools/options.ts'
import { EDIT_DEFAULTS, WATERMARK_START } from '../../static/tools/edit/settings.ts'
import { sourceFiles } from '../helpers/import-graph.ts'
import { ROOT } from '../helpers/paths.ts'

/*
 * The browser's controls take an API option's bounds and default from the option schema (the
 * page data, read through static/kit/ui/option-range.ts), so a tool cannot offer a value the API
 * refuses or hide one it takes, as Edit's radius once started at 0 where the schema starts at 1.
 */

const STATIC = join(ROOT, 'static')
const FILES = sourceFiles(STATIC).filter((file) => file.endsWith('.tsx'))
const FACTS = optionFacts(configWith())

/** The elements whose min and max are not a value's range: a progress bar's fraction. */
const NOT_CONTROLS = new Set(['progress', 'meter'])

/** The tag of the JSX element an attribute at `index` belongs to. */
function elementAt(text: string, index: number): string {
  const open = text.lastIndexOf('<', index)
  return /^<([A-Za-z]+)/.exec(text.slice(open))?.[1] ?? ''
}

/** `min={0}`, `max={-45}`, `neutral={10}`, `range={{ min: 1 … }}`: a bound written as a number. */
function literalBounds(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found: string[] = []
  const patterns = [/\b(min|max|neutral)=\{\s*-?[\d.]/g, /\brange=\{\{[^}]*\b(min|max):\s*-?[\d.]/g]
  for (const pattern of patterns)
    for (const match of text.matchAll(pattern)) {
      if (NOT_CONTROLS.has(elementAt(text, match.index))) continue
      const line = text.slice(0, match.index).split('\n').length
      found.push(`${relative(ROOT, file)}:${line}: ${match[0]}`)
    }
  return found
}

describe('controls take their bounds and defaults from the option schema', () => {
  test('no control in static/ writes a bound or a neutral value as a number', () => {
    // An option's come from optionRange(); a range of the tool's own is a named constant that says why.
    expect(FILES.flatMap(literalBounds)).toEqual([])
  })

  test('every option a control asks optionRange() for is a numeric option with both bounds', () => {
    const names = new Set(
      FILES.flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/optionRange\('(\w+)'\)/g)].map((m) => m[1]!),
      ),
    )
    expect(names.size).toBeGreaterThan(5)
    const unbounded = [...names].filter((name) => {
      const facts = FACTS[name as keyof typeof FACTS]
      const numeric =
        facts?.kind === 'integer' || facts?.kind === 'number' || facts?.kind === 'integer-or-word'
      return !numeric || facts.min === undefined || facts.max === undefined
    })
    expect(unbounded).toEqual([])
  })

  test("Edit starts every option at the API's default, but the watermark it names as its own", () => {
    const differing = Object.entries(EDIT_DEFAULTS).filter(([name, value]) => {
      const facts = FACTS[name as keyof typeof FACTS]
      if (!facts || !('default' in facts) || facts.default === undefined || name in WATERMARK_START)
        return false
      return facts.default !== value
    })
    expect(differing).toEqual([])
    // The comparison is not empty: the adjustments, flips and background have defaults.
    const compared = Object.keys(EDIT_DEFAULTS).filter((name) => {
      const facts = FACTS[name as keyof typeof FACTS]
      return facts && 'default' in facts && facts.default !== undefined
    })
    expect(compared).toEqual(
      expect.arrayContaining(['brightness', 'saturation', 'hue', 'contrast', 'background']),
    )
  })

  test('the radius field starts where the schema does (1), as Edit once did not', () => {
    const borders = readFileSync(join(STATIC, 'tools/edit/Borders.tsx'), 'utf8')
    expect(FACTS.radius).toMatchObject({ kind: 'integer', min: 1 })
    expect(borders).toContain("optionRange('radius')")
  })
})
