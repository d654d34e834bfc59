import { describe, expect, test } from 'bun:test'
import type { AppError } from '../../src/errors/app-error.ts'
import { parseCompressOptions } from '../../src/options/parse.ts'
import { OPTION_NAMES, optionSchema } from '../../src/options/schema.ts'

const parse = (raw: Record<string, string>) => parseCompressOptions(new Map(Object.entries(raw)))

const failure = (raw: Record<string, string>): AppError => {
  try {
    parse(raw)
  } catch (error) {
    return error as AppError
  }
  throw new Error('expected the options to be rejected')
}

describe('parseCompressOptions', () => {
  test('fills every declared default and leaves the rest absent', () => {
    const options = parse({})
    for (const name of OPTION_NAMES) expect(options[name]).toEqual(optionSchema(name).default)
  })

  test('converts strings from query and form fields to typed values', () => {
    expect(parse({ quality: '75', lossless: 'true', width: '800', format: 'jpg' })).toMatchObject({
      quality: 75,
      lossless: true,
      width: 800,
      format: 'jpg',
    })
  })

  test('rejects out-of-range, non-integer and non-boolean values with expected and received', () => {
    const error = failure({ quality: '120', width: '80.5', lossless: 'yes' })
    expect(error.code).toBe('INVALID_PARAMETER')
    expect(error.errors).toEqual([
      {
        name: 'quality',
        reason:
          'expected an integer from 1 to 100, or one of auto, auto-high, auto-medium, auto-low, received "120"',
      },
      { name: 'width', reason: 'expected an integer from 1 to 65535, received "80.5"' },
      { name: 'lossless', reason: 'expected true or false, received "yes"' },
    ])
  })

  test('rejects unknown options by name, suggesting the closest known one', () => {
    const error = failure({ qualty: '80' })
    expect(error.errors?.[0]).toEqual({ name: 'qualty', reason: 'unknown option; did you mean quality?' })
    expect(failure({ Width: '80' }).errors?.[0]?.reason).toBe('unknown option; did you mean width?')
    expect(failure({ zzzzzzzz: '1' }).errors?.[0]?.reason).toBe('unknown option')
  })

  test('names the known options once per answer, however many are unknown, and keeps every text within its schema', () => {
    const many = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`unknownOption${i}x`.repeat(8), 'x']),
    )
    const error = failure(many)
    // The OpenAPI document bounds detail to 8192 characters and each reason to 512.
    expect(error.detail.length).toBeLessThanOrEqual(8192)
    for (const { reason } of error.errors ?? []) expect(reason.length).toBeLessThanOrEqual(512)
    expect(error.detail.split('quality').length - 1).toBe(1)
    expect(error.detail).toContain(`the options are ${OPTION_NAMES.join(', ')}`)
    expect(error.omittedErrors).toBe(40)
  })

  test('rejects unknown formats and malformed colours', () => {
    expect(failure({ format: 'bmp' }).errors?.[0]?.reason).toContain('one of original, auto, jpeg, jpg')
    expect(failure({ background: 'red' }).errors?.[0]?.reason).toContain('hex colour')
  })

  // The rule the README documents under "Option values", one row per case.
  const ACCEPTED: [string, string, unknown][] = [
    ['quality', '75', 75],
    ['quality', ' 7 ', 7],
    ['quality', '007', 7],
    ['lossless', 'true', true],
    ['lossless', 'TRUE', true],
    ['lossless', 'False', false],
    ['lossless', '1', true],
    ['lossless', '0', false],
    ['format', 'webp ', 'webp'],
    ['format', 'WEBP', 'webp'],
    ['format', 'Jpg', 'jpg'],
    ['fit', 'Cover', 'cover'],
    ['metadata', 'KEEP', 'keep'],
    ['chromaSubsampling', '4:4:4', '4:4:4'],
    ['background', '#FFF', '#FFF'],
    ['rotate', '-90', -90],
    ['rotate', ' 12.5 ', 12.5],
    ['trim', '0', 0],
    ['crop', '10,20,300,200', '10,20,300,200'],
  ]
  test.each(ACCEPTED)('accepts %s=%j as %j', (name, text, value) => {
    expect(parse({ [name]: text })[name as keyof ReturnType<typeof parse>]).toEqual(value as never)
  })

  const REFUSED: [string, string, string][] = [
    ['quality', '', 'an empty value'],
    ['quality', '   ', 'an empty value'],
    ['format', '', 'an empty value'],
    ['quality', '80.0', '"80.0"'],
    ['quality', '8e1', '"8e1"'],
    ['quality', '0x50', '"0x50"'],
    ['quality', '+80', '"+80"'],
    ['quality', '-1', '"-1"'],
    ['quality', '7 5', '"7 5"'],
    ['lossless', 'yes', '"yes"'],
    ['lossless', 'on', '"on"'],
    ['lossless', '', 'an empty value'],
    ['format', 'web p', '"web p"'],
    ['background', 'red', '"red"'],
    ['rotate', '1e2', '"1e2"'],
    ['rotate', '90.', '"90."'],
    ['rotate', '--90', '"--90"'],
    ['rotate', '361', '"361"'],
    ['trim', '-1', '"-1"'],
    ['width', '-5', '"-5"'],
  ]
  test.each(REFUSED)('refuses %s=%j, saying it received %s', (name, text, received) => {
    const error = failure({ [name]: text })
    expect(error.code).toBe('INVALID_PARAMETER')
    expect(error.errors?.[0]?.name).toBe(name)
    expect(error.errors?.[0]?.reason).toContain(`received ${received}`)
  })

  test('quotes at most 100 characters of a value, with its length', () => {
    const reason = failure({ quality: '9'.repeat(5000) }).errors?.[0]?.reason ?? ''
    expect(reason).toContain('(5000 characters)')
    // What was expected, then at most 100 characters of what came.
    expect(reason.length).toBeLessThan(260)
  })
})
