/*
 * Requests no well-behaved client sends: hostile Host headers, HTTP/1.0 without one, oversized
 * heads, a multipart body of half a million empty fields, a megabyte-long field, pipelining.
 * Each must get a small problem+json 4xx (or its 200s), never a 5xx, an HTML page or a crash.
 */
import { rawRequest, type RawExchange } from '../../../tests/helpers/raw-http.ts'
import { runLanes } from '../keep-alive.ts'
import { askOnce, failure, requestHead, toAnswer, type Answer } from '../requests.ts'
import { goal, type Goal, type Outcome, type Scenario } from '../scenario.ts'
import { Tally } from '../tally.ts'
import { hostileHeads, hugeMultipart, longFieldMultipart, type Case } from './hostile-cases.ts'

/** An error body larger than this is echoing the attack back. */
const SMALL_BODY_BYTES = 4096

function fromExchange(exchange: RawExchange, started: number): Answer {
  const response = exchange.responses[0]
  return response
    ? toAnswer(response, started)
    : failure(exchange.closedByServer ? 'closed' : 'timeout', started)
}

async function sendCase(baseUrl: string, item: Case): Promise<Answer> {
  const started = performance.now()
  if (typeof item.request === 'string')
    return fromExchange(await rawRequest(baseUrl, Buffer.from(item.request, 'utf8')), started)
  return askOnce(baseUrl, item.request, 30_000)
}

/** Health then formats, pipelined on one keep-alive connection: both must come back, in order. */
async function pipelined(baseUrl: string, tally: Tally): Promise<string[]> {
  const started = performance.now()
  const request =
    requestHead('GET', '/api/health') + requestHead('GET', '/api/formats', { Connection: 'close' })
  const exchange = await rawRequest(baseUrl, request, 2000)
  for (const response of exchange.responses) tally.add(toAnswer(response, started))
  const statuses = exchange.responses.map((r) => r.status)
  return statuses.join(',') === '200,200'
    ? []
    : [`pipelined health+formats: expected 200,200, got [${statuses}]`]
}

/**
 * The 33.6 MB multipart is refused in well under a second; it is sent back to back on a few
 * connections for a while, so that health is probed while it is being parsed.
 */
const MANY_FIELDS = { lanes: 3, quickMs: 3_000, fullMs: 8_000 }

interface Sent {
  readonly item: Case
  readonly answer: Answer
}

function judge(sent: readonly Sent[], tally: Tally, pipelineMismatch: readonly string[]): Goal[] {
  const mismatches = sent
    .filter(({ item, answer }) => !item.expect(answer.status))
    .map(
      ({ item, answer }) => `${item.name}: expected ${item.expected}, got ${answer.status ?? answer.error}`,
    )
    .concat(pipelineMismatch)
  const answers = sent.map(({ answer }) => answer)
  const errors = answers.filter((a) => (a.status ?? 0) >= 400)
  const notProblem = errors.filter((a) => a.contentType !== 'application/problem+json')
  const html = answers.filter((a) => a.contentType?.includes('html') || a.body.trimStart().startsWith('<'))
  return [
    goal(
      'every request got its expected status',
      mismatches.length === 0,
      mismatches.join('; ') || `${tally.total} as expected`,
    ),
    goal('no 5xx and no HTML', errors.every((a) => a.status! < 500) && html.length === 0, tally.format()),
    goal(
      'every error answer is problem+json',
      notProblem.length === 0,
      notProblem.map((a) => `${a.status} ${a.contentType}`).join(', ') || `${errors.length} errors`,
    ),
    goal(
      `every error body under ${SMALL_BODY_BYTES} B`,
      tally.largestErrorBytes < SMALL_BODY_BYTES,
      `largest ${tally.largestErrorBytes} B`,
    ),
  ]
}

export const hostileHttp: Scenario = {
  name: 'hostile-http',
  attack:
    'hostile Host headers, HTTP/1.0 without Host, 30 KB heads, 568,680 empty multipart fields, a 1 MB field, pipelining',
  async run({ baseUrl, quick, progress }): Promise<Outcome> {
    const tally = new Tally()
    const sent: Sent[] = []
    const send = async (item: Case) => {
      const answer = await sendCase(baseUrl, item)
      tally.add(answer)
      sent.push({ item, answer })
      return answer
    }
    for (const item of [...hostileHeads(), longFieldMultipart()]) await send(item)
    const manyFields = hugeMultipart()
    const durationMs = quick ? MANY_FIELDS.quickMs : MANY_FIELDS.fullMs
    progress(`sending ${manyFields.name} on ${MANY_FIELDS.lanes} connections for ${durationMs} ms`)
    const flood: Answer[] = []
    await runLanes(MANY_FIELDS.lanes, durationMs, async () => void flood.push(await send(manyFields)))
    const pipelineMismatch = await pipelined(baseUrl, tally)
    return {
      tally,
      lines: [
        `${tally.total} requests; largest error body ${tally.largestErrorBytes} B`,
        `${manyFields.name}, ${flood.length} times on ${MANY_FIELDS.lanes} connections: ` +
          `slowest answer ${Math.round(Math.max(...flood.map((a) => a.ms)))} ms, ` +
          `largest body ${Math.max(...flood.map((a) => a.bytes))} B`,
      ],
      goals: judge(sent, tally, pipelineMismatch),
    }
  },
}
