/*
 * A one-line progress bar on a terminal's standard error, redrawn in place with \r: files done,
 * bytes saved, the file being worked. Small enough not to need a library; lines printed while
 * it shows (a failure) clear it first and it comes back on the next update.
 */
import { formatBytes } from './byte-sizes.ts'

export interface Progress {
  update(done: number, savedBytes: number, current: string): void
  /** Prints a line above the bar. */
  print(line: string): void
  clear(): void
}

const BAR = 24

export function createProgress(total: number, stream: NodeJS.WriteStream): Progress {
  let shown = false
  const clear = () => {
    if (shown) stream.write('\r\x1b[2K')
    shown = false
  }
  return {
    update(done, savedBytes, current) {
      const filled = total ? Math.round((done / total) * BAR) : BAR
      const head = `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${done}/${total} files, ${formatBytes(savedBytes)} saved  `
      const room = Math.max(0, (stream.columns || 80) - head.length - 1)
      const name = current.length > room ? `…${current.slice(current.length - room + 1)}` : current
      stream.write(`\r\x1b[2K${head}${name}`)
      shown = true
    },
    print(line) {
      clear()
      stream.write(`${line}\n`)
    },
    clear,
  }
}
