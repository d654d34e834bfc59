import { UPLOAD_IDLE_MARGIN_SECONDS } from '../settings.ts'

/** What the compress route needs of Bun's server: its per-request idle timeout. */
export interface IdleTimer {
  timeout(request: Request, seconds: number): void
}

/**
 * Bun's idle timeout for one request. Elysia sets 30 s for every connection, and a body that
 * trickles in does not reset it (measured with one byte a second), so an upload was cut at about
 * 31 s with no answer whatever IMGAPI_UPLOAD_TIMEOUT_MS said. While the body is read, the timer is set a
 * margin past the upload limit, so the limit answers first (408); once it is read, the timer is
 * off, as Bun leaves it for any request whose body has arrived, and IMGAPI_JOB_TIMEOUT_MS bounds
 * the work. `server` is absent when the app is called without a socket (tests).
 */
export function armUploadTimer(
  server: IdleTimer | null | undefined,
  request: Request,
  uploadTimeoutMs: number,
) {
  server?.timeout(request, Math.ceil(uploadTimeoutMs / 1000) + UPLOAD_IDLE_MARGIN_SECONDS)
  return () => server?.timeout(request, 0)
}
