/**
 * Output for commands whose reader may go away first (`imgapi --licenses | head`): a closed
 * pipe (EPIPE) ends the program quietly with exit code 0, as command-line tools do, instead
 * of a stack trace and exit code 1. Any other write error is left to surface.
 */
let guarded = false

export function endQuietlyOnClosedPipe(): void {
  if (guarded) return
  guarded = true
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
}

/** Writes `text` to standard output, ending quietly if the reader has gone. */
export function writeOut(text: string): void {
  endQuietlyOnClosedPipe()
  process.stdout.write(text)
}
