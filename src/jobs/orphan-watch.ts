/**
 * A worker whose server is gone ends at once. Between jobs it learns that from its stdin
 * closing; in the middle of a job it is not reading stdin, and a long encode (an effort-9 AVIF
 * runs for many minutes) would go on holding a CPU and its memory for nobody, after a crash or a
 * SIGKILL of the server. The job's sharp work runs off the JavaScript thread, so a timer still
 * fires: when the parent process changes (the worker was re-parented to init or a subreaper),
 * the worker kills itself. SIGKILL rather than exit(): exit handlers would wait for libvips'
 * threads, which are busy with the very encode to stop.
 */
const CHECK_MS = 500

export function endWithParent(): void {
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL')
  }, CHECK_MS).unref()
}
