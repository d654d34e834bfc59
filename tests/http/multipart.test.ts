import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { fixture } from '../helpers/paths.ts'
import { multipart, post, problemOf } from '../helpers/requests.ts'

/** A multipart body written by hand, for shapes FormData will not produce. */
function handMadeMultipart(parts: string[], boundary = 'XyZ'): RequestInit {
  const body = parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`
  return { method: 'POST', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}
const field = (name: string, value: string) =>
  `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`

describe('multipart bodies', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi()
  })
  afterAll(() => api.stop())

  test('stops at the first part past 64 and answers 400 MALFORMED_REQUEST, however many follow', async () => {
    const parts = Array.from({ length: 50_000 }, (_, i) => field(`f${i}`, ''))
    const started = performance.now()
    const response = await api.fetch('/api/compress', handMadeMultipart(parts))
    const text = await response.text()
    expect(response.status).toBe(400)
    expect(JSON.parse(text).code).toBe('MALFORMED_REQUEST')
    expect(JSON.parse(text).detail).toContain('64 parts')
    expect(text.length).toBeLessThan(2000)
    // A hang or a read of every part, not the time of a busy machine.
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  for (const name of ['file', 'other']) {
    test(`answers 400 to a body that ends inside a part named "${name}", and the process lives on`, async () => {
      const body = `--XB\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\n\r\nabc`
      const response = await api.fetch('/api/compress', {
        method: 'POST',
        body,
        headers: { 'content-type': 'multipart/form-data; boundary=XB' },
      })
      expect([response.status, (await problemOf(response)).code]).toEqual([400, 'MALFORMED_REQUEST'])
      // busboy's error on the part's stream arrives after the answer: give it time to surface
      // (the preloaded unhandled-errors check fails the test if it reaches the process).
      await Bun.sleep(300)
      expect((await api.fetch('/api/health')).status).toBe(200)
    })
  }

  test('refuses a field value over 1 KiB, and says so in a short error', async () => {
    const form = multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp', {
      format: 'x'.repeat(1_000_000),
    })
    const response = await api.fetch('/api/compress', post(form))
    const text = await response.text()
    const problem = JSON.parse(text)
    expect([response.status, problem.code, problem.errors[0].name]).toEqual([
      400,
      'INVALID_PARAMETER',
      'format',
    ])
    expect(problem.errors[0].reason).toContain('1024 bytes')
    expect(text.length).toBeLessThan(2000)
  })

  test('lists at most 20 invalid fields and counts the rest', async () => {
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`unknown${i}`, '1']))
    const problem = await problemOf(
      await api.fetch(
        '/api/compress',
        post(multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp', fields)),
      ),
    )
    expect(problem.code).toBe('INVALID_PARAMETER')
    expect(problem.errors).toHaveLength(20)
    expect(problem.errorsOmitted).toBe(10)
    expect(problem.detail).toContain('and 10 more')
  })

  test('reports fields named constructor and __proto__ as unknown options, not as repeated ones', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const form = multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp', { [name]: '1' })
      const problem = await problemOf(await api.fetch('/api/compress', post(form)))
      expect(problem.errors?.[0]).toEqual({ name, reason: expect.stringContaining('unknown option') })
      const query = await problemOf(
        await api.fetch(
          `/api/compress?${name}=1`,
          post(multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp')),
        ),
      )
      expect(query.errors?.[0]?.reason).toContain('unknown option')
    }
  })

  test('refuses two files with 400 INVALID_PARAMETER', async () => {
    const form = multipart(await fixture('webp-lossy-alpha.webp'), 'a.webp')
    form.append('file', new File([await fixture('webp-lossy-alpha.webp')], 'b.webp'))
    const problem = await problemOf(await api.fetch('/api/compress', post(form)))
    expect([problem.httpStatus, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
    expect(problem.detail).toContain('one file')
  })

  test('names the file fields when the image comes in a field of another name', async () => {
    const form = new FormData()
    form.append('image', new File([await fixture('webp-lossy-alpha.webp')], 'a.webp'))
    const problem = await problemOf(await api.fetch('/api/compress', post(form)))
    expect([problem.httpStatus, problem.code]).toEqual([400, 'INVALID_PARAMETER'])
    expect(problem.errors?.[0]?.name).toBe('image')
    expect(problem.detail).toContain('"file"')
  })

  test('answers a multipart body without its closing boundary with 400 MALFORMED_REQUEST', async () => {
    const init = handMadeMultipart([field('format', 'png')])
    const truncated = String(init.body).replace('--XyZ--\r\n', '')
    const problem = await problemOf(await api.fetch('/api/compress', { ...init, body: truncated }))
    expect([problem.httpStatus, problem.code]).toEqual([400, 'MALFORMED_REQUEST'])
  })

  test('answers a multipart Content-Type without a boundary with 400 MALFORMED_REQUEST', async () => {
    const problem = await problemOf(
      await api.fetch('/api/compress', {
        method: 'POST',
        body: 'abc',
        headers: { 'content-type': 'multipart/form-data' },
      }),
    )
    expect([problem.httpStatus, problem.code]).toEqual([400, 'MALFORMED_REQUEST'])
  })
})
