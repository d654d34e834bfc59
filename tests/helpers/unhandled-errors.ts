import { afterAll, afterEach } from 'bun:test'

/**
 * Preloaded into every test file (bunfig.toml): an error that reaches the process with nobody
 * to handle it (an 'error' event without a listener, a rejected promise nobody awaits) ends
 * a real server, so here it fails the test during which it arrived, or the file's last hook.
 */
const unhandled: string[] = []
const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error))

process.on('uncaughtException', (error) => void unhandled.push(`uncaught exception: ${describe(error)}`))
process.on('unhandledRejection', (reason) => void unhandled.push(`unhandled rejection: ${describe(reason)}`))

function failOnUnhandled() {
  if (unhandled.length === 0) return
  const found = unhandled.splice(0)
  throw new Error(
    `an error reached the process unhandled (a real server would have died):\n${found.join('\n')}`,
  )
}

afterEach(failOnUnhandled)
afterAll(failOnUnhandled)
