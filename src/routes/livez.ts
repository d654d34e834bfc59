import { Elysia } from 'elysia'
import { liveResponse } from '../http/live-response.ts'

/**
 * Liveness for orchestrators: answers while the event loop runs, and nothing else. Readiness
 * is /api/health, which also fails while the codecs are broken or the server drains; a
 * liveness probe on it would restart a pod that only needs to be taken out of rotation.
 */
export function livezRoutes() {
  return new Elysia().get('/livez', liveResponse, { detail: { hide: true } })
}
