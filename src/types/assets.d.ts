// Files embedded with `import path from '…' with { type: 'file' }`: the import is a path.
declare module '@scalar/api-reference/browser/standalone.js' {
  const path: string
  export default path
}
