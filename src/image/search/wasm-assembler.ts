/*
 * Just enough of the WebAssembly binary format to write the SSIM kernel (ssim-kernel.ts) as
 * TypeScript: instructions are byte arrays, so a helper returning a sequence is a macro, and the
 * module is assembled when it is first loaded. Nothing is built ahead or fetched: the source is
 * what runs, in `bun src/index.ts` and in the executable alike.
 * Reference: the WebAssembly core specification 2.0, chapter 5 (binary format), with the
 * fixed-width SIMD opcodes of its section 5.4.8.
 */

export type Bytes = readonly number[]

/** Unsigned LEB128. */
export function uleb(value: number): number[] {
  const out: number[] = []
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return out
}

/** Signed LEB128, for i32.const. */
function sleb(value: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = value & 0x7f
    value >>= 7
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

export const I32 = 0x7f
export const F64 = 0x7c
export const V128 = 0x7b

export const seq = (...parts: (Bytes | number)[]): number[] =>
  parts.flatMap((part) => (typeof part === 'number' ? [part] : [...part]))

const simd = (opcode: number) => [0xfd, ...uleb(opcode)]
/** memarg: alignment exponent (a hint only), then a constant offset added to the address. */
const memarg = (align: number, offset: number) => [...uleb(align), ...uleb(offset)]

export const op = {
  block: (body: Bytes) => seq(0x02, 0x40, body, 0x0b),
  loop: (body: Bytes) => seq(0x03, 0x40, body, 0x0b),
  /** Runs `body` when the i32 on the stack is not zero. */
  if: (body: Bytes) => seq(0x04, 0x40, body, 0x0b),
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  call: (fn: number) => [0x10, ...uleb(fn)],
  drop: [0x1a],
  f64Load: (offset = 0) => [0x2b, ...memarg(3, offset)],
  f64Store: (offset = 0) => [0x39, ...memarg(3, offset)],
  i32: (value: number) => [0x41, ...sleb(value)],
  f64: (value: number) => {
    const bytes = new Uint8Array(new Float64Array([value]).buffer)
    return [0x44, ...bytes]
  },
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32RemU: [0x70],
  i32And: [0x71],
  f64Add: [0xa0],
  f64Mul: [0xa2],
  v128Load: (offset = 0) => [...simd(0x00), ...memarg(3, offset)],
  v128Store: (offset = 0) => [...simd(0x0b), ...memarg(3, offset)],
  v128Const: (lanes: readonly [number, number]) => [
    ...simd(0x0c),
    ...new Uint8Array(new Float64Array(lanes).buffer),
  ],
  f64x2Splat: simd(0x14),
  f64x2ExtractLane: (lane: number) => [...simd(0x21), lane],
  f64x2Add: simd(0xf0),
  f64x2Sub: simd(0xf1),
  f64x2Mul: simd(0xf2),
  f64x2Div: simd(0xf3),
}

export interface WasmFunction {
  readonly name: string
  readonly params: readonly number[]
  readonly results: readonly number[]
  /** Locals after the parameters, by type, in order. */
  readonly locals: readonly number[]
  readonly body: Bytes
}

const vector = (items: readonly Bytes[]) => seq(uleb(items.length), ...items)
const section = (id: number, content: Bytes) => seq(id, uleb(content.length), content)
const name = (text: string) => seq(uleb(text.length), [...new TextEncoder().encode(text)])

/** A module of `functions`, all exported by name, with one memory exported as "memory". */
export function assemble(functions: readonly WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) =>
    seq(0x60, vector(f.params.map((t) => [t])), vector(f.results.map((t) => [t]))),
  )
  const code = functions.map((f) => {
    const locals = vector(f.locals.map((type) => [1, type]))
    const body = seq(locals, f.body, 0x0b)
    return seq(uleb(body.length), body)
  })
  const exports = [...functions.map((f, i) => seq(name(f.name), 0x00, uleb(i))), seq(name('memory'), 0x02, 0)]
  return new Uint8Array(
    seq(
      [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      section(1, vector(types)),
      section(3, vector(functions.map((_, i) => uleb(i)))),
      section(5, vector([[0x00, 1]])),
      section(7, vector(exports)),
      section(10, vector(code)),
    ),
  )
}
