import { readFileSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { Logger } from '../log.ts'
import { KeyRing, keysFromList, parseKeyFile, type ApiKey } from './api-keys.ts'

/**
 * The API keys in force: from IMGAPI_API_KEYS and the keys file together. The file is read at
 * start-up (a broken one stops the start) and again on SIGHUP and whenever its directory
 * changes: Kubernetes swaps a Secret's files through a symbolic link in the directory, so the
 * file itself is never modified. A broken file on reload keeps the keys in force and logs why.
 */
export class KeySource {
  #ring: KeyRing | undefined
  #watcher: FSWatcher | undefined
  #debounce: ReturnType<typeof setTimeout> | undefined

  private constructor(
    private readonly listed: readonly ApiKey[],
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  static open(list: string, file: string, logger: Logger): KeySource {
    const source = new KeySource(keysFromList(list), file, logger)
    source.#ring =
      source.listed.length > 0 || file ? new KeyRing([...source.listed, ...source.#readFile()]) : undefined
    if (file) source.#watch()
    return source
  }

  /** Keys are on when either setting is given; then compress needs a key. */
  get enabled(): boolean {
    return this.#ring !== undefined
  }

  find(presented: string): ApiKey | undefined {
    return this.#ring?.find(presented)
  }

  reload(reason: string): void {
    if (!this.file) return
    try {
      const fromFile = this.#readFile()
      this.#ring = new KeyRing([...this.listed, ...fromFile])
      this.logger.info('API keys reloaded', { reason, keys: this.#ring.size })
    } catch (error) {
      this.logger.error('API keys file not reloaded; the keys in force stay', {
        reason,
        error: error instanceof Error ? error.message : String(error),
      })
    }
  }

  close(): void {
    this.#watcher?.close()
    clearTimeout(this.#debounce)
  }

  #readFile(): ApiKey[] {
    if (!this.file) return []
    return parseKeyFile(readFileSync(this.file, 'utf8'))
  }

  #watch(): void {
    const name = basename(this.file)
    this.#watcher = watch(dirname(this.file), (_event, changed) => {
      // A Secret update renames ..data, not the file; any change in the directory may be one.
      if (changed && changed !== name && !changed.startsWith('..')) return
      clearTimeout(this.#debounce)
      this.#debounce = setTimeout(() => this.reload('the keys file changed'), 200)
    })
    this.#watcher.unref?.()
  }
}
