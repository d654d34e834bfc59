import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Api } from '../helpers/api.ts'

/** The OpenAPI document the server serves, written to a temporary file for outside tools. */
export async function writeSpec(api: Api): Promise<{ path: string; spec: Record<string, any> }> {
  const spec = (await (await api.fetch('/swagger/json')).json()) as Record<string, any>
  const path = join(mkdtempSync(join(tmpdir(), 'imgapi-spec-')), 'openapi.json')
  await Bun.write(path, JSON.stringify(spec, null, 2))
  return { path, spec }
}
