import { describe, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BINARY, waitForStartup } from '../helpers/api.ts'

/**
 * What only the single executable does: unpack its native libraries safely, ignore the
 * settings files of whatever directory it starts in. Runs when IMGAPI_TEST_BINARY is set.
 */
const fresh = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

async function start(env: Record<string, string>, cwd = fresh('imgapi-cwd-')) {
  const proc = Bun.spawn([resolve(BINARY!)], {
    cwd,
    env: { IMGAPI_PORT: '0', IMGAPI_HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const startup = await waitForStartup(proc).catch(() => undefined)
  if (!startup)
    return { proc, url: undefined, stderr: await new Response(proc.stderr).text(), code: await proc.exited }
  const url = `http://${startup.address}`
  return { proc, url, stderr: '', code: undefined }
}

async function stop(proc: ReturnType<typeof Bun.spawn>) {
  proc.kill('SIGTERM')
  return proc.exited
}

const libraries = (dir: string) =>
  readdirSync(dir)
    .filter((f) => !f.endsWith('.tmp'))
    .sort()

describe.skipIf(!BINARY)('the single executable', () => {
  test('unpacks libvips and the sharp addon into a private 0700 directory, named by content hash', async () => {
    const home = fresh('imgapi-home-')
    const tmp = fresh('imgapi-tmp-')
    const { proc, url } = await start({ HOME: home, TMPDIR: tmp })
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    const dir = join(home, '.cache/imgapi')
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(dir).uid).toBe(process.getuid!())
    expect(libraries(dir)).toEqual([
      expect.stringMatching(/^libvips-cpp-[0-9a-f]{16}\.so$/),
      expect.stringMatching(/^sharp-[0-9a-f]{16}\.node$/),
    ])
    // Nothing native is unpacked into the shared temporary directory.
    expect(readdirSync(tmp)).toEqual([])
    expect(await stop(proc)).toBe(0)
  })

  test('honours XDG_CACHE_HOME and IMGAPI_LIB_DIR', async () => {
    const xdg = fresh('imgapi-xdg-')
    const a = await start({ HOME: fresh('imgapi-home-'), XDG_CACHE_HOME: xdg })
    expect(libraries(join(xdg, 'imgapi'))).toHaveLength(2)
    await stop(a.proc)
    const libDir = join(fresh('imgapi-lib-'), 'nested')
    const b = await start({ HOME: fresh('imgapi-home-'), IMGAPI_LIB_DIR: libDir })
    expect(libraries(libDir)).toHaveLength(2)
    await stop(b.proc)
  })

  test('replaces a tampered library instead of loading it', async () => {
    const home = fresh('imgapi-home-')
    await stop((await start({ HOME: home })).proc)
    const dir = join(home, '.cache/imgapi')
    const [libvips] = libraries(dir)
    chmodSync(join(dir, libvips!), 0o600)
    writeFileSync(join(dir, libvips!), 'not a library')
    const { proc, url } = await start({ HOME: home })
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    expect(statSync(join(dir, libvips!)).size).toBeGreaterThan(1_000_000)
    await stop(proc)
  })

  test('two copies starting at the same moment both come up, sharing one verified copy', async () => {
    const home = fresh('imgapi-home-')
    const [a, b] = await Promise.all([start({ HOME: home }), start({ HOME: home })])
    for (const { url } of [a, b]) expect((await fetch(`${url}/api/health`)).status).toBe(200)
    expect(readdirSync(join(home, '.cache/imgapi'))).toHaveLength(2)
    await Promise.all([stop(a.proc), stop(b.proc)])
  })

  test('a read-only home is a clear error that names IMGAPI_LIB_DIR', async () => {
    // sysfs refuses mkdir even to root, like a read-only home.
    const { url, code, stderr } = await start({ HOME: '/sys/fs' })
    expect(url).toBeUndefined()
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toContain('IMGAPI_LIB_DIR')
  })

  test('refuses a library directory that is a symbolic link', async () => {
    const target = fresh('imgapi-target-')
    const link = join(fresh('imgapi-link-'), 'lib')
    symlinkSync(target, link)
    const { code, stderr } = await start({ HOME: fresh('imgapi-home-'), IMGAPI_LIB_DIR: link })
    expect(code).toBe(2)
    expect(stderr).toContain('symbolic link')
  })

  test.skipIf(process.getuid?.() !== 0)('refuses a library directory owned by another user', async () => {
    const dir = join(fresh('imgapi-other-'), 'lib')
    mkdirSync(dir, { mode: 0o777 })
    chownSync(dir, 65534, 65534)
    const { code, stderr } = await start({ HOME: fresh('imgapi-home-'), IMGAPI_LIB_DIR: dir })
    expect(code).toBe(2)
    expect(stderr).toContain('owned by uid 65534')
    expect(existsSync(join(dir, 'libvips-cpp.so'))).toBe(false)
  })

  test('ignores .env and bunfig.toml in the directory it starts in', async () => {
    const cwd = fresh('imgapi-cwd-')
    const marker = join(cwd, 'preloaded')
    writeFileSync(join(cwd, '.env'), 'IMGAPI_MAX_UPLOAD_BYTES=1234\n')
    writeFileSync(join(cwd, 'preload.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'yes')\n`)
    writeFileSync(join(cwd, 'bunfig.toml'), 'preload = ["./preload.js"]\n')
    const { proc, url } = await start({ HOME: fresh('imgapi-home-') }, cwd)
    const response = await fetch(`${url}/api/compress`, { method: 'POST', body: new Uint8Array(5000) })
    expect((await response.json()).code).not.toBe('PAYLOAD_TOO_LARGE')
    expect(existsSync(marker)).toBe(false)
    await stop(proc)
  })

  test('SIGINT also drains and exits 0', async () => {
    const { proc, url } = await start({ HOME: fresh('imgapi-home-') })
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    proc.kill('SIGINT')
    expect(await proc.exited).toBe(0)
  })
})
