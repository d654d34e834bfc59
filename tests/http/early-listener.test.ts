import { afterEach, describe, expect, test } from 'bun:test'
import { listenEarly, type EarlyListener } from '../../src/http/early-listener.ts'

describe('the early listener (open before the app is built, then handed over)', () => {
  let listener: EarlyListener | undefined
  afterEach(() => {
    listener?.server.stop(true)
    listener = undefined
  })
  const url = (path: string) => `http://127.0.0.1:${listener!.server.port}${path}`

  test('answers /livez at once and holds every other request until the app takes over', async () => {
    listener = listenEarly(0, '127.0.0.1')
    const live = await fetch(url('/livez'))
    expect([live.status, await live.text()]).toEqual([200, 'ok\n'])

    let answered = false
    const held = fetch(url('/api/health'), { headers: { 'x-probe': 'held' } }).then((response) => {
      answered = true
      return response
    })
    await Bun.sleep(100)
    expect(answered).toBe(false)

    listener.handOver((request) =>
      Response.json({ from: 'app', probe: request.headers.get('x-probe') }, { status: 201 }),
    )
    const response = await held
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ from: 'app', probe: 'held' })
  })

  test('after the hand-over the app answers everything, /livez included, on the same port', async () => {
    listener = listenEarly(0, '127.0.0.1')
    const port = listener.server.port
    listener.handOver((request) => new Response(`app ${new URL(request.url).pathname}`))
    expect(listener.server.port).toBe(port)
    expect(await (await fetch(url('/livez'))).text()).toBe('app /livez')
    expect(await (await fetch(url('/api/formats'))).text()).toBe('app /api/formats')
  })

  test('a request body sent while the app was not there yet reaches it whole', async () => {
    listener = listenEarly(0, '127.0.0.1')
    const body = new Uint8Array(3 << 20).map((_, i) => i % 251)
    const sent = fetch(url('/api/compress'), { method: 'POST', body })
    await Bun.sleep(50)
    listener.handOver(async (request) => {
      const bytes = new Uint8Array(await request.arrayBuffer())
      return Response.json({ length: bytes.length, sum: bytes.reduce((a, b) => (a + b) % 65521, 0) })
    })
    const expected = body.reduce((a, b) => (a + b) % 65521, 0)
    expect(await (await sent).json()).toEqual({ length: body.length, sum: expected })
  })
})
