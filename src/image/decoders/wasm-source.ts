import { readFileSync } from 'node:fs'
import { ConfigError } from '../../setting-values.ts'

/**
 * A WebAssembly decoder's code: the module embedded in the executable (`with { type: 'file' }`
 * gives a path inside it, or in node_modules when running from source), or a replacement the
 * operator names. Compiled from bytes, never fetched: browser-first packages otherwise reach
 * for fetch() and a URL next to their script, which a server executable does not have.
 */
/** A replacement module that cannot be used: a setting's error, so the server does not start. */
export class DecoderModuleError extends ConfigError {}

export interface WasmSource {
  readonly module: WebAssembly.Module
  /** Where the bytes came from: the embedded copy, or the replacement's path. */
  readonly origin: 'embedded' | string
}

/** Synchronous on purpose: a replacement that does not compile stops the start-up, not a request. */
export function compileWasm(embeddedPath: string, replacementPath: string, setting: string): WasmSource {
  const path = replacementPath || embeddedPath
  let bytes: Uint8Array<ArrayBuffer>
  try {
    bytes = new Uint8Array(readFileSync(path))
  } catch (error) {
    throw new DecoderModuleError(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`)
  }
  try {
    return { module: new WebAssembly.Module(bytes), origin: replacementPath || 'embedded' }
  } catch (error) {
    throw new DecoderModuleError(
      `${setting}: ${path} is not a WebAssembly module (${(error as Error).message})`,
    )
  }
}
