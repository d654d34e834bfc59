import libheifFactory from 'libheif-js/libheif-wasm/libheif.js'
import embeddedWasm from 'libheif-js/libheif-wasm/libheif.wasm' with { type: 'file' }
import { compileWasm, type WasmSource } from './wasm-source.ts'

/**
 * libheif with libde265 (LGPL-3.0), as the libheif-js package builds it: the Emscripten glue
 * and its separate .wasm file, single-threaded. The only module that knows how it is loaded.
 * The LGPL lets a user swap in their own build: IMGAPI_HEIF_WASM names a replacement .wasm
 * built from the same libheif version (the glue's imports must match).
 */
export interface EnumValue {
  readonly value: number
}
interface HeifError {
  readonly code: EnumValue
  readonly message: string
}
export interface HeifChannel {
  readonly id: EnumValue
  readonly width: number
  readonly height: number
  readonly stride: number
  readonly data: Uint8Array
}
export interface DecodedHeif {
  readonly code?: EnumValue
  readonly image: object
  readonly channels: readonly HeifChannel[]
}
type Handle = object & { readonly code?: EnumValue }

export interface Libheif {
  heif_get_version(): string
  heif_context_alloc(): object
  heif_context_free(context: object): void
  heif_context_read_from_memory(context: object, bytes: Uint8Array): HeifError
  heif_js_context_get_primary_image_handle(context: object): Handle
  heif_image_handle_get_width(handle: Handle): number
  heif_image_handle_get_height(handle: Handle): number
  heif_image_handle_has_alpha_channel(handle: Handle): number
  heif_image_handle_release(handle: Handle): void
  heif_js_decode_image2(handle: Handle, colorspace: EnumValue, chroma: EnumValue): DecodedHeif
  heif_image_release(image: object): void
  readonly heif_error_code: { readonly heif_error_Ok: EnumValue }
  readonly heif_colorspace: { readonly heif_colorspace_RGB: EnumValue }
  readonly heif_chroma: {
    readonly heif_chroma_interleaved_RGB: EnumValue
    readonly heif_chroma_interleaved_RGBA: EnumValue
  }
  readonly heif_channel: { readonly heif_channel_interleaved: EnumValue }
  readonly HEAPU8: Uint8Array
}

export const HEIF_WASM_SETTING = 'IMGAPI_HEIF_WASM'

let source: WasmSource | undefined
let instance: Libheif | undefined

/** Compiles the module now (embedded, or the replacement at `replacementPath`). */
export function useLibheifModule(replacementPath: string): WasmSource {
  source = compileWasm(embeddedWasm, replacementPath, HEIF_WASM_SETTING)
  instance = undefined
  return source
}

/**
 * A ready libheif. The glue must be instantiated synchronously: it copies its exports into
 * public names as soon as the factory returns, so an asynchronous start registers them twice.
 */
export function libheif(): Libheif {
  if (instance) return instance
  const { module } = source ?? useLibheifModule('')
  instance = libheifFactory({
    instantiateWasm(
      imports: WebAssembly.Imports,
      receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
    ) {
      const created = new WebAssembly.Instance(module, imports)
      receive(created, module)
      return created.exports
    },
    // The glue would print its own complaints to the console; errors reach us as values.
    print: () => {},
    printErr: () => {},
  }) as Libheif
  if (typeof instance.heif_context_alloc !== 'function') throw new Error('libheif did not start')
  return instance
}

/** After a trap the instance's memory may be inconsistent: the next decode gets a fresh one. */
export function discardLibheif(): void {
  instance = undefined
}

export function libheifMemoryBytes(): number {
  return instance?.HEAPU8.buffer.byteLength ?? 0
}

export function libheifOrigin(): string {
  return source?.origin ?? 'embedded'
}
