import { describe, expect, test } from 'bun:test'
import { capMallocArenas } from '../../src/image/memory.ts'

const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
const glibc = process.platform === 'linux' && Boolean(report?.header?.glibcVersionRuntime)

describe('malloc arena cap', () => {
  test.skipIf(!glibc)('is applied through glibc mallopt on Linux with glibc', () => {
    expect(capMallocArenas(4)).toBe(true)
  })
})
