/**
 * Large request bodies arrive as many chunks that are garbage as soon as they are copied, and
 * a served upload's buffer is garbage once its response is built; JavaScriptCore collects them
 * only under its own pressure, which let resident memory reach twice the upload budget under
 * floods of uploads. So a full collection runs on the next turn of the event loop once large
 * bodies read or released since the last one add up to RECLAIM_EVERY_BYTES. One after every
 * large body cost more than the rest of the server's work on a thumbnail (about 7 of 13 ms of
 * CPU per request for a 4 MP upload resized to 256 px).
 */
export const RECLAIM_FROM_BYTES = 1024 * 1024
/** At most this much garbage from bodies waits for a collection (a body counts as it arrives and when released). */
export const RECLAIM_EVERY_BYTES = 32 * 1024 * 1024

let scheduled: ReturnType<typeof setTimeout> | undefined
let owed = 0

export function reclaimSoon(bytes: number): void {
  if (bytes < RECLAIM_FROM_BYTES) return
  owed += bytes
  if (owed < RECLAIM_EVERY_BYTES || scheduled) return
  scheduled = setTimeout(() => {
    scheduled = undefined
    owed = 0
    Bun.gc(true)
  }, 0)
}
