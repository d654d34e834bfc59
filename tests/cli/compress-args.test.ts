import { describe, expect, test } from 'bun:test'
import { parseByteSize } from '../../src/cli/byte-sizes.ts'
import { parseCompressArgs, UsageError } from '../../src/cli/compress-args.ts'
import { compressHelpText } from '../../src/cli/compress-help.ts'
import { FLAG_OPTIONS, kebabCase } from '../../src/cli/option-flags.ts'
import { OPTION_NAMES } from '../../src/options/schema.ts'

describe('imgapi compress arguments', () => {
  test('reads sizes with decimal (k, M, G) and binary (KiB, MiB, GiB) units, and bare bytes', () => {
    expect(parseByteSize('200k')).toBe(200_000)
    expect(parseByteSize('200kB')).toBe(200_000)
    expect(parseByteSize('1.5M')).toBe(1_500_000)
    expect(parseByteSize('200KiB')).toBe(204_800)
    expect(parseByteSize('2MiB')).toBe(2 * 1024 * 1024)
    expect(parseByteSize('12345')).toBe(12_345)
    expect(parseByteSize('12 parsecs')).toBeUndefined()
  })

  test('takes each API option in kebab-case and in camelCase, a size as its bytes', () => {
    const kebab = parseCompressArgs(['a.jpg', '--max-bytes', '200k', '--format=webp', '--allow-resize'])
    const camel = parseCompressArgs(['a.jpg', '--maxBytes=200KiB', '--format', 'webp', '--allowResize'])
    expect([...kebab.options]).toEqual([
      ['maxBytes', '200000'],
      ['format', 'webp'],
      ['allowResize', 'true'],
    ])
    expect(camel.options.get('maxBytes')).toBe('204800')
    expect(kebab.inputs).toEqual(['a.jpg'])
  })

  test("keeps - as standard input and reads the command's own flags", () => {
    const args = parseCompressArgs(['-', '--json', '--jobs', '3', '--dry-run'])
    expect(args).toMatchObject({ inputs: ['-'], json: true, jobs: 3, dryRun: true, inPlace: false })
  })

  test('refuses an unknown flag, suggesting the one meant', () => {
    expect(() => parseCompressArgs(['a.jpg', '--qualty', '80'])).toThrow(
      /unknown flag --qualty; did you mean --quality\?/,
    )
    expect(() => parseCompressArgs(['a.jpg', '--jobs', '0'])).toThrow(UsageError)
    expect(() => parseCompressArgs(['a.jpg', '--width'])).toThrow(/--width needs a value/)
  })

  test('--help lists every option of the schema but url and variants, so the two cannot drift', () => {
    const help = compressHelpText()
    expect(FLAG_OPTIONS).toEqual(OPTION_NAMES.filter((name) => name !== 'url' && name !== 'variants'))
    for (const name of FLAG_OPTIONS) expect(help).toContain(`--${kebabCase(name)}`)
    expect(help).toContain('KiB, MiB, GiB = 1024s')
    expect(help).not.toContain('--port')
  })
})
