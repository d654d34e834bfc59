/**
 * Large request bodies arrive as many chunks that are garbage as soon as they are copied, and
 * a served upload's buffer is garbage once its response is built; JavaScriptCore collects them
 * only under its own pressure, which let resident memory reach twice the upload budget under
 * floods of uploads. After each large body is read or released, one full collection runs on
 * the next turn of the event loop (a few milliseconds; calls in the same turn share it).
 */
export const RECLAIM_FROM_BYTES = 1024 * 1024

let scheduled: ReturnType<typeof setTimeout> | undefined

export function reclaimSoon(bytes: number): void {
  if (bytes < RECLAIM_FROM_BYTES || scheduled) return
  scheduled = setTimeout(() => {
    scheduled = undefined
    Bun.gc(true)
  }, 0)
}
