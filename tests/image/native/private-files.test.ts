import { describe, expect, test } from 'bun:test'
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { installVerified, sha256, usePrivateDirectory } from '../../../src/image/native/private-files.ts'

const fresh = () => mkdtempSync(join(tmpdir(), 'imgapi-private-'))

function embeddedFile(content: string) {
  const path = join(fresh(), 'embedded.so')
  writeFileSync(path, content)
  return { path, name: 'lib', extension: '.so' }
}

describe('private native-library directory', () => {
  test('is created 0700 and tightened if it was group or world accessible', () => {
    const dir = join(fresh(), 'a', 'b')
    usePrivateDirectory(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    const loose = fresh()
    chmodSync(loose, 0o777)
    usePrivateDirectory(loose)
    expect(statSync(loose).mode & 0o777).toBe(0o700)
  })

  test('refuses a symbolic link, naming IMGAPI_LIB_DIR', () => {
    const link = join(fresh(), 'link')
    symlinkSync(fresh(), link)
    expect(() => usePrivateDirectory(link)).toThrow(/symbolic links are refused\); set IMGAPI_LIB_DIR/)
  })

  test('installs a file under its content hash, read-only, and reuses it', () => {
    const dir = fresh()
    usePrivateDirectory(dir)
    const file = embeddedFile('library bytes')
    const path = installVerified(file)
    expect(path).toBe(join(dir, `lib-${sha256(new TextEncoder().encode('library bytes')).slice(0, 16)}.so`))
    expect(readFileSync(path, 'utf8')).toBe('library bytes')
    expect(statSync(path).mode & 0o777).toBe(0o500)
    const mtime = statSync(path).mtimeMs
    expect(installVerified(file)).toBe(path)
    expect(statSync(path).mtimeMs).toBe(mtime)
  })

  test('replaces a file whose bytes no longer match', () => {
    const dir = fresh()
    usePrivateDirectory(dir)
    const file = embeddedFile('genuine')
    const path = installVerified(file)
    writeFileSync(path, 'planted', { mode: 0o600 })
    expect(readFileSync(installVerified(file), 'utf8')).toBe('genuine')
  })

  test('refuses to load bytes that do not match the hash recorded at build time', () => {
    usePrivateDirectory(fresh())
    const file = {
      ...embeddedFile('modified after the build'),
      sha256: sha256(new TextEncoder().encode('original')),
    }
    expect(() => installVerified(file)).toThrow(/does not match the embedded library/)
  })

  test('leaves no temporary files behind', () => {
    const dir = fresh()
    usePrivateDirectory(dir)
    installVerified(embeddedFile('x'))
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})
