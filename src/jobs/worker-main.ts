import { configureDecoders, wasmMemoryBytes } from '../image/decoders/index.ts'
import { keepFreedMemory, trimMalloc } from '../image/memory.ts'
import { produce, searchDeadline, type Produced } from '../image/produce.ts'
import { assignedCpu, pinThisProcess } from './cpu-affinity.ts'
import { BlockingFrameReader, encodeFrame } from './frames.ts'
import { serialiseError, splitProduced, type JobMessage, type WorkerConfig } from './messages.ts'

/**
 * WebAssembly memory never shrinks: a worker whose decoders grew past this is replaced after
 * its job (it exits; the server starts another), so one huge HEIC does not pin the memory.
 */
const RECYCLE_WASM_BYTES = 512 * 1024 * 1024

const STDIN = 0

type Send = (header: object, buffers?: readonly Uint8Array[]) => Promise<void>

/**
 * A worker process: reads jobs from stdin, one at a time, and writes what they produced to
 * stdout, as frames. It never listens and never logs to stdout (stdout carries frames); what
 * went wrong travels back as the job's error, for the server to answer and log. It ends when
 * stdin closes, so it never outlives the server.
 */
export async function runWorker(config: WorkerConfig): Promise<never> {
  configureDecoders(config)
  keepFreedMemory(config.keepBytes)
  const cpu = assignedCpu(process.env)
  if (cpu !== undefined) pinThisProcess(cpu)
  const out = Bun.stdout.writer()
  let writes = Promise.resolve()
  // Frames are written whole and in order, whoever sends them (a best-so-far during a search).
  const send: Send = (header, buffers = []) => {
    writes = writes.then(() => {
      for (const part of encodeFrame(header, buffers)) out.write(part)
      return Promise.resolve(out.flush()).then(() => undefined)
    })
    return writes
  }
  await send({ type: 'ready', pid: process.pid })
  const idleBytes = process.memoryUsage.rss()
  const jobs = new BlockingFrameReader(STDIN, config.keepBytes)
  let jobsRun = 0
  for (let frame = jobs.read(); frame; frame = jobs.read()) {
    await runJob(frame.header as unknown as JobMessage, frame.buffers[0]!, send, frame.buffers[1])
    // The first job starts libvips' threads and the runtime's pools; pinning them too keeps the
    // whole job on the worker's CPU (threads they start later inherit it).
    if (cpu !== undefined && ++jobsRun === 1) pinThisProcess(cpu)
    if (wasmMemoryBytes() > RECYCLE_WASM_BYTES) process.exit(0)
    // Freed memory kept for the next job saves refaulting it (about a tenth of the CPU of a
    // photo's job); beyond what the server allows, it goes back to the system.
    if (process.memoryUsage.rss() - idleBytes > config.keepBytes) trimMalloc()
  }
  process.exit(0)
}

async function runJob(job: JobMessage, input: Uint8Array, send: Send, overlay?: Uint8Array): Promise<void> {
  const sendProduced = (type: 'best' | 'done', produced: Produced) => {
    const { facts, data } = splitProduced(produced)
    return send({ type, id: job.id, produced: facts }, [data])
  }
  try {
    const produced = await produce(input, job.probe, job.candidates, {
      ...job.pipeline,
      ...(overlay ? { overlay } : {}),
      deadline: searchDeadline(performance.now(), job.timeoutMs),
      onBest: (best) => void sendProduced('best', best),
    })
    await sendProduced('done', produced)
  } catch (error) {
    await send({ type: 'failed', id: job.id, error: serialiseError(error) })
  }
}
