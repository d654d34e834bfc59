import { describe, expect, test } from 'bun:test'
import { configWith } from '../../../src/config.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import type { JobClock } from '../../../src/image/job-clock.ts'
import { planJob, type JobPlan } from '../../../src/image/plan.ts'
import { probeImage } from '../../../src/image/probe.ts'
import { decodePixels } from '../../../src/image/search/index.ts'
import { meetTarget } from '../../../src/image/search/meet-target.ts'
import { EncodeSession } from '../../../src/image/search/session.ts'
import { parseCompressOptions } from '../../../src/options/parse.ts'
import { fixture } from '../../helpers/paths.ts'

const config = configWith({})

/**
 * A byte-target search on the fixture photo whose clock moves only when it encodes: each
 * encode costs `msPerEncode` of the job's time, so when it runs out is set by the test, not
 * by how busy the machine is.
 */
async function searchFor(query: string, msPerEncode: number, deadline: number) {
  const input = await fixture('photo-exif-orientation-6.jpg')
  const probe = await probeImage(input, config.maxUploadBytes)
  const plan = planJob(parseCompressOptions(new Map(new URLSearchParams(query)), config), probe, config)
  const pixels = await decodePixels(input, probe, plan, {
    maxInputPixels: config.maxInputPixels,
    timeoutSeconds: 60,
  })
  // The session reads the clock just before and just after each encode; the second reading of
  // an encode finds its cost added.
  let time = 0
  let readings = 0
  const clock: JobClock = {
    now: () => {
      if (readings > 0 && --readings === 0) time += msPerEncode
      return time
    },
  }
  const session = EncodeSession.start(pixels, probe, { clock, deadline, maxEncodes: 16, timeoutSeconds: 60 })
  const encoded: { plan: JobPlan; width: number }[] = []
  const encode = session.encode.bind(session)
  session.encode = async (p: JobPlan) => {
    readings = 2
    const attempt = await encode(p)
    encoded.push({ plan: p, width: session.pixels.width })
    return attempt
  }
  return { session, plan, encoded, pixels }
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error as AppError
  }
  throw new Error('expected the search to fail')
}

describe('a byte target that the clock ends', () => {
  test('says it ran out of time, with the smallest reached, when the floor was never tried: not TARGET_UNREACHABLE', async () => {
    // One encode fits in the time: the start quality, too big; the floor (which would fit) never comes.
    const { session, plan } = await searchFor('format=jpeg&maxBytes=40000', 10_000, 15_000)
    const error = await failure(meetTarget(session, [plan], 40_000))
    expect(error.code).toBe('PROCESSING_TIMEOUT')
    expect(error.smallestBytes).toBeGreaterThan(40_000)
    expect(error.detail).toContain('ran out of it')
  })

  test('is TARGET_UNREACHABLE when the floor was encoded and did not fit, whatever the clock did after', async () => {
    const { session, plan, encoded } = await searchFor('format=jpeg&maxBytes=2000', 10_000, 25_000)
    const error = await failure(meetTarget(session, [plan], 2_000))
    expect(error.code).toBe('TARGET_UNREACHABLE')
    expect(encoded.at(-1)!.plan.quality).toBe(plan.goal!.floor)
  })

  test('with allowResize, tries the floor first and moves to a smaller size at once when even it does not fit', async () => {
    const { session, plan, encoded, pixels } = await searchFor(
      'format=jpeg&maxBytes=12000&allowResize=true',
      1,
      1e9,
    )
    const { attempt, session: fitted } = await meetTarget(session, [plan], 12_000)
    expect(attempt.encoded.data.length).toBeLessThanOrEqual(12_000)
    expect(fitted.pixels.width).toBeLessThan(pixels.width)
    // One encode at full size, at the floor: none spent on the qualities above it.
    const atFull = encoded.filter((e) => e.width === pixels.width)
    expect(atFull.map((e) => e.plan.quality)).toEqual([plan.goal!.floor])
  })
})
