/*
 * Enlargement: a 1×1 PNG asked for 16383×16383, and the 10-frame GIF asked for width 16383 as
 * WebP. Each once cost gigabytes; now the plan is refused from the header (422 IMAGE_TOO_LARGE)
 * before anything is decoded, so answers are fast and memory stays flat.
 */
import { fixture, onePixelPng } from '../inputs.ts'
import { mib } from '../memory.ts'
import { postImage, type Answer } from '../requests.ts'
import { goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'

const EACH = 20
const ROUNDS = { quick: 2, full: 5 }
const ANSWER_GOAL_MS = 1_000
/**
 * "Flat": under a tenth of the smallest allocation either attack makes once accepted (one
 * 16383×16383 RGB frame, 768 MiB); what remains is request handling and the JS heap.
 */
const FLAT_GROWTH_BYTES = 64 * 1024 * 1024
const PNG_QUERY = 'width=16383&height=16383&fit=fill&withoutEnlargement=false&format=jpeg'
const GIF_QUERY = 'format=webp&width=16383&withoutEnlargement=false'

export const enlargement: Scenario = {
  name: 'enlargement',
  attack: `${EACH} × 1×1 PNG to 16383×16383 JPEG and ${EACH} × 10-frame GIF to width 16383 WebP, concurrently`,
  async run({ baseUrl, quick, idleBytes, peakBytes }): Promise<Outcome> {
    const png = await onePixelPng()
    const gif = await fixture('gif-animated-10frames.gif')
    const tally = new Tally()
    const answers: Answer[] = []
    for (let round = 0; round < (quick ? ROUNDS.quick : ROUNDS.full); round++) {
      const sends = Array.from({ length: EACH }, () => [
        postImage(baseUrl, PNG_QUERY, png),
        postImage(baseUrl, GIF_QUERY, gif),
      ]).flat()
      answers.push(...(await Promise.all(sends)))
    }
    answers.forEach((answer) => tally.add(answer))
    const refused = answers.filter((a) => a.status === 422 && a.code === 'IMAGE_TOO_LARGE').length
    const slowest = Math.max(...answers.map((a) => a.ms))
    const growth = peakBytes() - idleBytes
    return {
      tally,
      lines: [
        `inputs: PNG ${png.byteLength} B (1×1), GIF ${gif.byteLength} B (370×285, 10 frames); ${answers.length} requests`,
        `latency: ${tally.formatLatencies()}`,
      ],
      goals: [
        goal(
          `every one 422 IMAGE_TOO_LARGE, answered under ${ANSWER_GOAL_MS} ms`,
          refused === answers.length && slowest < ANSWER_GOAL_MS,
          `${refused} of ${answers.length}; slowest ${Math.round(slowest)} ms`,
        ),
        goal(
          `RSS flat: peak under idle + ${mib(FLAT_GROWTH_BYTES)}`,
          growth < FLAT_GROWTH_BYTES,
          `peak − idle = ${mib(growth)}`,
        ),
      ],
    }
  },
}
