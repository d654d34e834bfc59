import { describe, expect, test } from 'bun:test'
import { configWith } from '../src/config.ts'
import { SETTINGS, type SettingSpec } from '../src/settings.ts'
import { startupLimits } from '../src/startup-limits.ts'

const marked = Object.entries(SETTINGS as Record<string, SettingSpec>)
  .filter(([, spec]) => spec.limit)
  .map(([name]) => name)

describe('the start-up line lists the limits from the settings table', () => {
  test('lists every setting marked limit, in the table order, with its configured value', () => {
    const config = configWith({ maxUploadBytes: 123_456, workers: 3 })
    const limits: Record<string, unknown> = startupLimits(config)
    expect(Object.keys(limits)).toEqual(marked)
    const configured = config as unknown as Record<string, unknown>
    expect(limits).toEqual(Object.fromEntries(marked.map((name) => [name, configured[name]])))
  })

  test('lists the bounds an operator checks first, and no secret', () => {
    expect(marked.sort()).toEqual(
      [
        'jobTimeoutMs',
        'maxClientJobs',
        'maxFrames',
        'maxInputPixels',
        'maxOutputDimension',
        'maxOutputPixels',
        'maxUploadBytes',
        'queueLength',
        'rateLimit',
        'uploadTimeoutMs',
        'workers',
      ].sort(),
    )
    for (const name of marked) expect((SETTINGS as Record<string, SettingSpec>)[name]!.secret).toBeUndefined()
  })

  test('shows the value in force where the caller gives one', () => {
    const limits = startupLimits(configWith({ rateLimit: 0 }), { rateLimit: 'off', maxClientJobs: 7 })
    expect(limits.rateLimit).toBe('off')
    expect(limits.maxClientJobs).toBe(7)
  })
})
