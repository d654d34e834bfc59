import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig, unknownEnvSettings } from '../src/config.ts'
import { SETTINGS } from '../src/settings.ts'

describe('loadConfig', () => {
  test('listens on 0.0.0.0:3000 with the documented limits by default', () => {
    const config = loadConfig()
    expect(config.port).toBe(3000)
    expect(config.host).toBe('0.0.0.0')
    expect(config.maxUploadBytes).toBe(32 * 1024 * 1024)
    expect(config.maxInputPixels).toBe(100_000_000)
    expect(Object.isFrozen(config)).toBe(true)
  })

  test('takes a flag over IMGAPI_PORT over PORT', () => {
    expect(loadConfig({ env: { PORT: '4000' } }).port).toBe(4000)
    expect(loadConfig({ env: { PORT: '4000', IMGAPI_PORT: '5000' } }).port).toBe(5000)
    expect(loadConfig({ argv: ['--port', '6000'], env: { IMGAPI_PORT: '5000' } }).port).toBe(6000)
    expect(loadConfig({ argv: ['--port=7000'] }).port).toBe(7000)
  })

  test('reads every limit from its env var and flag', () => {
    for (const [name, spec] of Object.entries(SETTINGS)) {
      if (spec.kind !== 'integer') continue
      const value = String(('max' in spec ? Math.min(spec.max, 1234) : 1234) as number)
      const fromEnv = loadConfig({ env: { [spec.env[0]]: value } })
      const fromFlag = loadConfig({ argv: [spec.flag, value] })
      expect(String(fromEnv[name as keyof typeof fromEnv])).toBe(value)
      expect(String(fromFlag[name as keyof typeof fromFlag])).toBe(value)
    }
  })

  test('rejects a bad value naming the variable, what it expects and what it got', () => {
    expect(() => loadConfig({ env: { IMGAPI_MAX_UPLOAD_BYTES: '32MB' } })).toThrow(
      /IMGAPI_MAX_UPLOAD_BYTES must be an integer .* received "32MB"/,
    )
    expect(() => loadConfig({ argv: ['--port', '70000'] })).toThrow(
      /--port must be an integer between 0 and 65535/,
    )
    expect(() => loadConfig({ argv: ['--log-level', 'loud'] })).toThrow(
      /one of debug, info, warn, error, silent/,
    )
  })

  test('rejects unknown flags and flags without a value', () => {
    expect(() => loadConfig({ argv: ['--prot', '1'] })).toThrow(ConfigError)
    expect(() => loadConfig({ argv: ['--port'] })).toThrow(/--port needs a value/)
  })
})

describe('environment variables that name no setting', () => {
  test('are listed, removed settings and typos alike, but not the service’s own', () => {
    expect(
      unknownEnvSettings({
        IMGAPI_MAX_AVIF_PIXELS: '6000000',
        IMGAPI_WORKRES: '2',
        IMGAPI_WORKERS: '2',
        IMGAPI_WORKER_CONFIG: '{}',
        PATH: '/usr/bin',
      }),
    ).toEqual(['IMGAPI_MAX_AVIF_PIXELS', 'IMGAPI_WORKRES'])
  })
})
