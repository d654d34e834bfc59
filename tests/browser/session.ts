import { afterAll, beforeAll } from 'bun:test'
import type { Config } from '../../src/config.ts'
import { startApi, type Api } from '../helpers/api.ts'
import { launchBrowser, type Browser } from './chromium.ts'

export interface BrowserSession {
  readonly api: Api
  readonly browser: Browser
}

/**
 * A server on a real socket and a browser, started before the enclosing suite's tests and
 * stopped after them. Read `api` and `browser` inside the tests: they exist once beforeAll ran.
 */
export function browserSession(
  config: Partial<Config> = {},
  launch: Parameters<typeof launchBrowser>[0] = {},
): BrowserSession {
  const session = {} as { api: Api; browser: Browser }
  beforeAll(async () => {
    session.api = await startApi(config, { socket: true })
    session.browser = await launchBrowser(launch)
  }, 60_000)
  afterAll(async () => {
    await session.browser?.close()
    await session.api?.stop()
  })
  return session
}
