import { initSync, JxlImage, version } from 'jxl-oxide-wasm'
import embeddedWasm from 'jxl-oxide-wasm/module.wasm' with { type: 'file' }
import { compileWasm } from './wasm-source.ts'

/**
 * jxl-oxide (MIT OR Apache-2.0), a JPEG XL decoder written in Rust, as its wasm-bindgen
 * package builds it. The only module that knows how it is loaded. wasm-bindgen keeps one
 * instance per process (initSync cannot start another), so a trap cannot be recovered from
 * here: the worker process that runs it is recycled instead.
 */
let memory: WebAssembly.Memory | undefined

export function jxlOxide(): { readonly JxlImage: typeof JxlImage } {
  if (!memory) memory = initSync({ module: compileWasm(embeddedWasm, '', 'jxl-oxide').module }).memory
  return { JxlImage }
}

export function jxlOxideMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0
}

export function jxlOxideVersion(): string {
  jxlOxide()
  return version()
}
