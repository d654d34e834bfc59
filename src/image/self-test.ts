import { isPacked, type OutputFormat } from '../formats/format-table.ts'
import { listFormats } from './formats.ts'
import { sharp, type Sharp } from './sharp.ts'
import { PACKERS, readIco } from './steps/index.ts'
import type { FormatEnum } from 'sharp'

export interface CodecCheck {
  readonly ok: boolean
  readonly checkedAt: string
  readonly formats: Readonly<Record<string, boolean>>
}

const SIZE = 8

/** Encodes as the service does, and the first image sharp can read back out of it. */
async function roundTrip(source: Sharp, id: OutputFormat): Promise<Uint8Array> {
  if (!isPacked(id)) return source.toFormat(id as keyof FormatEnum).toBuffer()
  const packed = await PACKERS[id](source.png(), { icoSizes: [SIZE] })
  return readIco(packed.data)?.[0]?.png ?? new Uint8Array(0)
}

/** Encodes a tiny image in every writable format and decodes it back: proves the codecs work. */
async function checkCodecs(): Promise<CodecCheck> {
  // A new source for each format, not clone(): sharp clones with structuredClone, which the
  // start-up profile of the executable showed at over 100 ms for its first calls.
  const source = () =>
    sharp({
      create: { width: SIZE, height: SIZE, channels: 4, background: { r: 200, g: 80, b: 20, alpha: 0.5 } },
    })
  // All at once: the encodes queue on libvips' threads together and run while this thread
  // loads the rest of the server, instead of one waiting for this thread between each.
  const checks = listFormats()
    .filter((f) => f.output)
    .map(async (format): Promise<[string, boolean]> => {
      try {
        const decoded = await sharp(await roundTrip(source(), format.id as OutputFormat)).metadata()
        return [format.id, decoded.width === SIZE && decoded.height === SIZE]
      } catch {
        return [format.id, false]
      }
    })
  const formats: Record<string, boolean> = Object.fromEntries(await Promise.all(checks))
  const ok = Object.keys(formats).length > 0 && Object.values(formats).every(Boolean)
  return { ok, checkedAt: new Date().toISOString(), formats }
}

export interface CodecMonitor {
  /** The last completed check, or undefined before the first one ends. Never waits. */
  current(): CodecCheck | undefined
  /** The first check, started on first call; later checks run in the background. */
  first(): Promise<CodecCheck>
  stop(): void
}

/**
 * Runs the codec check once, then every `intervalMs` in the background. Health reads the last
 * result and never waits for a check: under load a check queues behind image work on libvips'
 * threads, and health must stay answerable exactly then.
 */
export function createCodecMonitor(
  intervalMs = 30_000,
  check: () => Promise<CodecCheck> = checkCodecs,
): CodecMonitor {
  let last: CodecCheck | undefined
  let running: Promise<CodecCheck> | undefined
  let firstCheck: Promise<CodecCheck> | undefined
  let timer: ReturnType<typeof setInterval> | undefined
  const refresh = (): Promise<CodecCheck> => {
    running ??= check()
      .catch(() => ({ ok: false, checkedAt: new Date().toISOString(), formats: {} }))
      .then((result) => {
        last = result
        running = undefined
        return result
      })
    return running
  }
  return {
    current: () => last,
    first: () => {
      if (!firstCheck) {
        firstCheck = refresh()
        timer = setInterval(() => void refresh(), intervalMs)
        timer.unref?.()
      }
      return firstCheck
    },
    stop: () => clearInterval(timer),
  }
}

/** A monitor that always reports `result`, for tests and embedding. */
export function fixedCodecMonitor(result: CodecCheck): CodecMonitor {
  return { current: () => result, first: async () => result, stop: () => {} }
}
