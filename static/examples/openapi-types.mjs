// Generates TypeScript types for imgapi from its OpenAPI document with openapi-typescript, typing
// `format: binary` (the uploaded file, the returned image) as Blob. openapi-typescript's command
// line types it as string, which a Blob or a File is not, and has no option to change that; its
// Node.js API takes a transform, the one option used here.
// Usage: node openapi-types.mjs http://localhost:3000/swagger/json generated/imgapi.ts
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'

const [source = 'http://localhost:3000/swagger/json', output = 'generated/imgapi.ts'] = process.argv.slice(2)

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'))
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull())

const ast = await openapiTS(new URL(source), {
  transform(schema) {
    if (schema.format !== 'binary') return undefined
    return schema.nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB
  },
})
await mkdir(dirname(output), { recursive: true })
await writeFile(output, astToString(ast))
console.log(`${source} -> ${output}`)
