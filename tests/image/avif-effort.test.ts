import { describe, expect, test } from 'bun:test'
import { configWith } from '../../src/config.ts'
import { defaultEffort, FORMAT_TABLE } from '../../src/formats/format-table.ts'
import { planCandidates } from '../../src/image/plan-candidates.ts'
import type { ImageProbe } from '../../src/image/probe.ts'
import { parseCompressOptions } from '../../src/options/parse.ts'
import { probeOf } from '../helpers/plans.ts'

const config = configWith({})
const photo = (width: number, height: number): ImageProbe => probeOf({ format: 'jpeg', width, height })

const effortFor = (probe: ImageProbe, query: string) =>
  planCandidates(parseCompressOptions(new Map(new URLSearchParams(query)), config), probe, config, {})[0]!
    .plan.effort

describe("AVIF's default effort, by output pixels", () => {
  const table = FORMAT_TABLE.avif.tunables.effort!

  test('is a fixed table: 3 up to 8 MP, 0 above; the plain default is the small images one', () => {
    expect(table.default).toBe(3)
    expect(table.defaultByPixels).toEqual([
      { maxPixels: 8_000_000, effort: 3 },
      { maxPixels: 100_000_000, effort: 0 },
    ])
    expect(defaultEffort(table, 1)).toBe(3)
    expect(defaultEffort(table, 8_000_000)).toBe(3)
    expect(defaultEffort(table, 8_000_001)).toBe(0)
    // Past the last step (a server allowing larger outputs), the last step's effort.
    expect(defaultEffort(table, 400_000_000)).toBe(0)
  })

  test("is chosen by the output's size, after resizing, not the input's", () => {
    // A 13 MP phone photo, as is and resized.
    const phone = photo(4224, 3168)
    expect(effortFor(phone, 'format=avif')).toBe(0)
    expect(effortFor(phone, 'format=avif&width=3200')).toBe(3)
    expect(effortFor(phone, 'format=avif&quality=auto&width=3000')).toBe(3)
    expect(effortFor(phone, 'format=avif&quality=auto&width=3300')).toBe(0)
  })

  test('an effort asked for is used as it is, at any size; other formats keep their single default', () => {
    const phone = photo(4224, 3168)
    expect(effortFor(phone, 'format=avif&effort=4')).toBe(4)
    expect(effortFor(phone, 'format=avif&effort=9&width=400')).toBe(9)
    expect(effortFor(phone, 'format=webp')).toBe(FORMAT_TABLE.webp.tunables.effort!.default)
  })
})
