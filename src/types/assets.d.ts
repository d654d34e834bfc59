// Files embedded with `import path from '…' with { type: 'file' }`: the import is a path.
declare module '@scalar/api-reference/browser/standalone.js' {
  const path: string
  export default path
}
declare module 'libheif-js/libheif-wasm/libheif.wasm' {
  const path: string
  export default path
}
declare module 'jxl-oxide-wasm/module.wasm' {
  const path: string
  export default path
}
declare module 'libheif-js/libheif-wasm/libheif.js' {
  const factory: (options: object) => unknown
  export default factory
}
