import { afterAll, beforeAll, expect } from 'bun:test'
import type { Config } from '../../src/config.ts'
import { startApi, type Api } from './api.ts'
import { rawBody } from './requests.ts'

/** A server for the enclosing describe block: started before its tests, stopped after them. */
export function apiForSuite(overrides: Partial<Config> = {}): () => Api {
  let api: Api
  beforeAll(async () => {
    api = await startApi(overrides)
  })
  afterAll(() => api.stop())
  return () => api
}

/** POST /api/compress with the image as the body; expects 200, says why when not. */
export async function compressOk(api: Api, input: Uint8Array, query: string) {
  const response = await api.fetch(`/api/compress?${query}`, rawBody(input))
  if (response.status !== 200) expect(`${response.status} ${await response.text()}`.slice(0, 400)).toBe('200')
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}
