import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { waitForStartup } from '../helpers/api.ts'
import { decode } from '../helpers/images.ts'
import { fixture } from '../helpers/paths.ts'

/**
 * Smoke test of the arm64 executable under qemu-user, where the machine has it (CI installs
 * qemu-user with the arm64 C and C++ runtimes); skipped, and saying so, elsewhere.
 */
const ARM64 = process.env.IMGAPI_TEST_ARM64_BINARY
const QEMU = Bun.which('qemu-aarch64')
const SYSROOT = '/usr/aarch64-linux-gnu'
const runnable = Boolean(
  ARM64 && existsSync(ARM64) && QEMU && existsSync(join(SYSROOT, 'lib/libstdc++.so.6')),
)
if (ARM64 && !runnable)
  console.warn('[skipped] arm64 smoke test: qemu-aarch64 or the arm64 runtime libraries are missing')

describe.skipIf(!runnable)('the arm64 executable under qemu', () => {
  test('serves health and compresses an image', async () => {
    const home = mkdtempSync(join(tmpdir(), 'imgapi-arm64-'))
    const proc = Bun.spawn([QEMU!, '-L', SYSROOT, resolve(ARM64!)], {
      cwd: home,
      // Jobs in the server's process: under qemu-user the executable's own path
      // (/proc/self/exe) is the emulator, so it cannot start itself again as a worker; on arm64
      // hardware it does, as the x64 executable does in every other suite.
      env: { HOME: home, IMGAPI_PORT: '0', IMGAPI_HOST: '127.0.0.1', IMGAPI_IN_PROCESS_JOBS: 'true' },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const url = `http://${(await waitForStartup(proc)).address}`
    try {
      const health = await (await fetch(`${url}/api/health`)).json()
      expect(health.status).toBe('ok')
      expect(Object.values(health.codecs.formats).every(Boolean)).toBe(true)
      const response = await fetch(`${url}/api/compress?format=webp&width=200`, {
        method: 'POST',
        body: (await fixture('photo-exif-orientation-6.jpg')) as Uint8Array<ArrayBuffer>,
      })
      expect(response.status).toBe(200)
      const decoded = await decode(await response.arrayBuffer())
      expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', 200, 150])
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
  }, 180_000)
})
