import { AppError } from '../errors/app-error.ts'
import type { JobInput } from '../image/executor.ts'
import type { WorkerEnded } from './worker-process.ts'

/*
 * What a request is answered when its worker ended before finishing, by how it ended. The
 * server's own kills say why they were sent; a worker that ended on its own either crashed in
 * its codec (the image's doing: retrying it crashes again) or was killed from outside (the
 * kernel's OOM killer, a container runtime, an operator: the machine's doing, worth a retry).
 */

/** Signals a codec raises on itself when it fails on its input. */
const CODEC_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGABRT', 'SIGTRAP', 'SIGSYS'])

/** Seconds a client is asked to wait after a lost worker or a job the machine could not run in time. */
export const RETRY_AFTER_SECONDS = 5

/** How a worker that ended on its own in the middle of a job ended. */
export function exitCause(ended: WorkerEnded): 'crash' | 'lost' {
  if (ended.signal !== null) return CODEC_SIGNALS.has(ended.signal) ? 'crash' : 'lost'
  // Bun turns an uncaught error or its own crash into a non-zero exit; 0 is a clean exit that
  // nothing in the worker asked for in the middle of a job.
  return ended.exitCode === 0 ? 'lost' : 'crash'
}

const retryLater = { 'retry-after': String(RETRY_AFTER_SECONDS) }

export function codecCrashed(job: JobInput): AppError {
  return new AppError(
    'CODEC_CRASHED',
    `expected the ${job.probe.format.toUpperCase()} image to decode and encode, the codec crashed on it; the server is fine, but this image cannot be processed as asked`,
  )
}

/** The same input's worker killed from outside again within minutes: the image is the likely cause. */
export function lostAgain(job: JobInput): AppError {
  return new AppError(
    'CODEC_CRASHED',
    `expected the worker working on this ${job.probe.format.toUpperCase()} image to finish, it was killed from outside again, as it was minutes ago (the system's out-of-memory killer is the usual cause); this image likely needs more memory than the machine gives, so send a smaller image or ask for a smaller width or height`,
  )
}

export function workerLost(): AppError {
  return new AppError(
    'WORKER_LOST',
    `expected the worker to finish the job, it was killed from outside the server (not by its own limits) on the first try and again on a fresh worker; retry in ${RETRY_AFTER_SECONDS} s`,
    { headers: retryLater },
  )
}

export function tooBusy(cpuMs: number, wallMs: number): AppError {
  return new AppError(
    'OVERLOADED',
    `expected the job to get its ${cpuMs} ms of CPU time within ${wallMs} ms, the machine was too busy to give it; retry in ${RETRY_AFTER_SECONDS} s`,
    { headers: retryLater },
  )
}

export function unavailable(why: string): AppError {
  return new AppError('UNAVAILABLE', `expected a worker to run the job, ${why}; retry in 1 s`, {
    headers: { 'retry-after': '1' },
  })
}
