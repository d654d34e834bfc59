import { configureDecoders, wasmMemoryBytes } from '../image/decoders/index.ts'
import { workerClock } from '../image/job-clock.ts'
import { keepFreedMemory, trimMalloc } from '../image/memory.ts'
import { produceParts } from '../image/produce-parts.ts'
import { searchDeadline, type Produced } from '../image/produce.ts'
import { assignedCpu, pinThisProcess } from './cpu-affinity.ts'
import { endWithParent } from './orphan-watch.ts'
import { BlockingFrameReader, encodeFrame } from './frames.ts'
import {
  serialiseError,
  splitProduced,
  type JobMessage,
  type PingMessage,
  type WorkerConfig,
} from './messages.ts'

/**
 * WebAssembly memory never shrinks: a worker whose decoders grew past this is replaced after
 * its job (it exits; the server starts another), so one huge HEIC does not pin the memory.
 */
const RECYCLE_WASM_BYTES = 512 * 1024 * 1024
/**
 * What a worker may hold after a job beyond its idle size and what it may keep: after
 * malloc_trim a photo's job leaves 1-11 MiB. Past it (a decoder's memory the WebAssembly
 * counter does not see, libheif's among them) the worker is replaced rather than kept.
 */
const RETIRE_MARGIN_BYTES = 32 * 1024 * 1024

const STDIN = 0

type Send = (header: object, buffers?: readonly Uint8Array[]) => Promise<void>

/**
 * A worker process: reads jobs from stdin, one at a time, and writes what they produced to
 * stdout, as frames. It never listens and never logs to stdout (stdout carries frames); what
 * went wrong travels back as the job's error, for the server to answer and log. It ends when
 * stdin closes, or mid-job when its parent changes (orphan-watch.ts), so it never outlives the server.
 */
export async function runWorker(config: WorkerConfig): Promise<never> {
  configureDecoders(config)
  keepFreedMemory(config.keepBytes)
  endWithParent()
  const cpu = assignedCpu(process.env)
  if (cpu !== undefined) pinThisProcess(cpu)
  const out = Bun.stdout.writer()
  let writes = Promise.resolve()
  // Frames are written whole and in order, whoever sends them (a best-so-far during a search).
  // A write that fails means the server is gone: nothing is left to answer.
  const send: Send = (header, buffers = []) => {
    writes = writes.then(() => {
      for (const part of encodeFrame(header, buffers)) out.write(part)
      return Promise.resolve(out.flush()).then(() => undefined)
    })
    writes = writes.catch(() => process.exit(0))
    return writes
  }
  await send({ type: 'ready', pid: process.pid })
  const idleBytes = process.memoryUsage.rss()
  const jobs = new BlockingFrameReader(STDIN, config.keepBytes)
  let jobsRun = 0
  for (let frame = jobs.read(); frame; frame = jobs.read()) {
    const message = frame.header as unknown as JobMessage | PingMessage
    if (message.type === 'ping') {
      await send({ type: 'pong' })
      continue
    }
    await send({ type: 'started', id: message.id })
    const retiring = await runJob(message, frame.buffers[0]!, send, frame.buffers[1], () =>
      mustRetire(idleBytes, config.keepBytes),
    )
    if (retiring) process.exit(0)
    // The first job starts libvips' threads and the runtime's pools; pinning them too keeps the
    // whole job on the worker's CPU (threads they start later inherit it).
    if (cpu !== undefined && ++jobsRun === 1) pinThisProcess(cpu)
  }
  process.exit(0)
}

/**
 * Decided before the job is answered, so the server never hands a job to a worker on its way
 * out. Freed memory kept for the next job saves refaulting it (about a tenth of the CPU of a
 * photo's job); beyond what the server allows, it goes back to the system, and a worker that
 * still holds more than that is replaced.
 */
function mustRetire(idleBytes: number, keepBytes: number): boolean {
  if (wasmMemoryBytes() > RECYCLE_WASM_BYTES) return true
  if (process.memoryUsage.rss() - idleBytes <= keepBytes) return false
  trimMalloc()
  return process.memoryUsage.rss() - idleBytes > keepBytes + RETIRE_MARGIN_BYTES
}

async function runJob(
  job: JobMessage,
  input: Uint8Array,
  send: Send,
  overlay: Uint8Array | undefined,
  retire: () => boolean,
): Promise<boolean> {
  const sendProduced = (header: { type: 'best' | 'part'; part: number }, produced: Produced) => {
    const { facts, data } = splitProduced(produced)
    return send({ ...header, id: job.id, produced: facts }, [data])
  }
  try {
    const clock = workerClock()
    await produceParts(
      input,
      job.probe,
      job.parts,
      {
        ...job.pipeline,
        ...(overlay ? { overlay } : {}),
        clock,
        deadline: searchDeadline(clock.now(), job.timeoutMs),
        concurrency: job.concurrency,
      },
      {
        // Each part goes out as it finishes: a kill at the job's time keeps what was done.
        onPart: (part, outcome) =>
          void ('produced' in outcome
            ? sendProduced({ type: 'part', part }, outcome.produced)
            : send({ type: 'part', id: job.id, part, error: serialiseError(outcome.error) })),
        onBest: (part, best) => void sendProduced({ type: 'best', part }, best),
      },
    )
  } catch (error) {
    const retiring = retire()
    await send({
      type: 'failed',
      id: job.id,
      error: serialiseError(error),
      ...(retiring ? { retiring } : {}),
    })
    return retiring
  }
  const retiring = retire()
  await send({ type: 'done', id: job.id, ...(retiring ? { retiring } : {}) })
  return retiring
}
