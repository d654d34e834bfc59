import { AppError } from '../../errors/app-error.ts'
import { scalePixels } from './pixels.ts'
import type { JobPlan } from '../plan.ts'
import { fitBytes } from './byte-target.ts'
import type { Attempt, EncodeSession } from './session.ts'

/** Scale-downs tried under allowResize before giving up. */
const RESIZE_ROUNDS = 3

const bytes = (attempt: Attempt) => attempt.encoded.data.length

function unreachable(maxBytes: number, smallest: number, floor: number, resizable: boolean): AppError {
  const advice = resizable
    ? 'raise maxBytes, ask for a smaller width or height, or lower minQuality'
    : 'allow allowResize=true to scale the image down, raise maxBytes, ask for a smaller width or height or another format, or lower minQuality (accepting visible blocks)'
  return new AppError(
    'TARGET_UNREACHABLE',
    `expected an output of at most ${maxBytes} bytes at quality ${floor} or above (minQuality), the smallest reached was ${smallest} bytes; ${advice}`,
    { smallestBytes: smallest },
  )
}

/**
 * The clock ended the search before it could tell: the time's code, with what it reached, not
 * TARGET_UNREACHABLE, which would blame the target for the time (an 11 MP JPEG XL on a busy
 * machine was told to raise maxBytes, while alone it answered 200 in 9 s).
 */
function outOfTime(maxBytes: number, smallest: number, resizable: boolean): AppError {
  const advice = resizable
    ? 'ask for a smaller width or height to start from, raise maxBytes, or lower the effort'
    : 'allow allowResize=true, ask for a smaller width or height, raise maxBytes, or lower the effort'
  return new AppError(
    'PROCESSING_TIMEOUT',
    `expected to reach maxBytes=${maxBytes} within the job's time (IMGAPI_JOB_TIMEOUT_MS), ran out of it with the smallest output at ${smallest} bytes; ${advice}`,
    { smallestBytes: smallest },
  )
}

/** The byte target over the candidates: the first (most preferred) that fits. */
async function fitCandidates(
  session: EncodeSession,
  candidates: readonly JobPlan[],
  maxBytes: number,
  floor: number,
) {
  let smallest: Attempt | undefined
  for (const plan of candidates) {
    if (smallest && !session.canAfford()) break
    const result = await fitBytes(session, plan, maxBytes, floor)
    if (!result) break
    if (!smallest || bytes(result.smallest) < bytes(smallest)) smallest = result.smallest
    if (result.fit) return { fit: result.fit, smallest }
  }
  return { smallest }
}

/**
 * maxBytes on the full pixels, never below the goal's floor (minQuality): when nothing fits,
 * TARGET_UNREACHABLE, or under allowResize the pixels scaled down, up to three times.
 */
export async function meetTarget(session: EncodeSession, candidates: readonly JobPlan[], maxBytes: number) {
  const goal = candidates[0]!.goal!
  const floor = goal.floor ?? 1
  for (let round = 0; ; round++) {
    const { fit, smallest } = await fitCandidates(session, candidates, maxBytes, floor)
    if (fit) return { attempt: fit, session }
    if (!smallest) {
      throw new AppError(
        'PROCESSING_TIMEOUT',
        `expected to reach maxBytes=${maxBytes} within the job's time and encode limits, ran out of both before trying`,
      )
    }
    const reached = bytes(smallest)
    const lastRound = !goal.allowResize || round >= RESIZE_ROUNDS || session.pixels.width <= 1
    // The floor's own encode proves it, whatever the clock did after.
    const proven = !session.ranOutOfTime || smallest.plan.quality === floor
    if (lastRound)
      throw proven
        ? unreachable(maxBytes, reached, floor, goal.allowResize)
        : outOfTime(maxBytes, reached, goal.allowResize)
    if (!session.canAfford()) throw outOfTime(maxBytes, reached, true)
    // Bytes fall roughly with the pixel count; aim a little under, at the same quality as before.
    const scale = Math.min(0.9, Math.sqrt(maxBytes / reached) * 0.9)
    const width = Math.max(1, Math.floor(session.pixels.width * scale))
    session = session.withPixels(await scalePixels(session.pixels, width))
  }
}
