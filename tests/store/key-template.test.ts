import { describe, expect, test } from 'bun:test'
import { refuseCollidingVariants } from '../../src/store/collisions.ts'
import { parseDestinations, resolveTarget } from '../../src/store/destinations.ts'
import { checkKey, expandTemplate, placeholdersOf } from '../../src/store/key-template.ts'

const codeOf = (run: () => unknown) => {
  try {
    run()
    return 'none'
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).constructor.name
  }
}

describe('store keys and destinations', () => {
  test('fills every placeholder, and refuses an unknown one', () => {
    const facts = {
      name: 'cat',
      width: '10',
      height: '5',
      ext: 'jpg',
      format: 'jpeg',
      hash: 'ab',
      date: '2026-12-02',
    }
    expect(expandTemplate('{date}/{name}-{width}x{height}.{hash}.{format}.{ext}', facts)).toBe(
      '2026-12-02/cat-10x5.ab.jpeg.jpg',
    )
    expect([...placeholdersOf('{name}/{width}')]).toEqual(['name', 'width'])
    expect(codeOf(() => placeholdersOf('{colour}'))).toBe('INVALID_PARAMETER')
  })

  test.each([
    ['a/../b', 'STORE_NOT_ALLOWED'],
    ['a/./b', 'STORE_NOT_ALLOWED'],
    ['/a', 'STORE_NOT_ALLOWED'],
    ['a//b', 'STORE_NOT_ALLOWED'],
    ['a/', 'STORE_NOT_ALLOWED'],
    ['a\\b', 'STORE_NOT_ALLOWED'],
    ['a\nb', 'STORE_NOT_ALLOWED'],
    ['a\u007fb', 'STORE_NOT_ALLOWED'],
    ['x'.repeat(1025), 'STORE_NOT_ALLOWED'],
    ['x'.repeat(1024), 'none'],
    ['a/b..c/d.e', 'none'],
  ])('checks the key %j: %s', (key, code) => {
    expect(codeOf(() => checkKey(key))).toBe(code)
  })

  test('reads the destinations, a prefix always ending in a slash', () => {
    expect(parseDestinations(' s3://img-bucket/a , s3://other.bucket/b/c/,s3://whole-bucket')).toEqual([
      { bucket: 'img-bucket', prefix: 'a/' },
      { bucket: 'other.bucket', prefix: 'b/c/' },
      { bucket: 'whole-bucket', prefix: '' },
    ])
    for (const bad of ['s3://UPPER/a/', 'https://bucket/a/', 's3://bucket/../a/', 's3://b/a/'])
      expect(
        codeOf(() => parseDestinations(bad)),
        bad,
      ).toBe('ConfigError')
  })

  test('resolves a store option under the longest destination that holds it, and nothing else', () => {
    const destinations = parseDestinations('s3://img-bucket/a/, s3://img-bucket/a/b/')
    expect(resolveTarget('s3://img-bucket/a/b/{name}', destinations)).toEqual({
      bucket: 'img-bucket',
      prefix: 'a/b/',
      template: '{name}',
    })
    expect(codeOf(() => resolveTarget('s3://img-bucket/ab/{name}', destinations))).toBe('STORE_NOT_ALLOWED')
    expect(codeOf(() => resolveTarget('s3://other-bucket/a/{name}', destinations))).toBe('STORE_NOT_ALLOWED')
    expect(codeOf(() => resolveTarget('s3://img-bucket/a/', destinations))).toBe('INVALID_PARAMETER')
  })

  test('refuses variants one template gives one key, unless {hash} tells them apart', () => {
    const used = placeholdersOf('{name}-{width}.{ext}')
    expect(codeOf(() => refuseCollidingVariants(used, [{ width: 100 }, { width: 200 }]))).toBe('none')
    expect(codeOf(() => refuseCollidingVariants(used, [{ format: 'jpg' }, { format: 'webp' }]))).toBe('none')
    expect(codeOf(() => refuseCollidingVariants(used, [{ format: 'jpg' }, { format: 'jpeg' }]))).toBe(
      'STORE_NOT_ALLOWED',
    )
    expect(codeOf(() => refuseCollidingVariants(used, [{ width: 100, dpr: 2 }, { width: 100 }]))).toBe('none')
    expect(codeOf(() => refuseCollidingVariants(placeholdersOf('{hash}'), [{}, {}]))).toBe('none')
  })
})
