import type { Config } from './config.ts'

// `notice` is for the few lines an operator always needs (the start-up line): only `silent` hides it.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, notice: 50, silent: 100 } as const
export type LogLevel = keyof typeof LEVELS

export type Logger = Record<
  Exclude<LogLevel, 'silent'>,
  (message: string, fields?: Record<string, unknown>) => void
>

/** JSON lines on stdout: one object per event, easy for journald, Docker and log shippers. */
export function createLogger(level: Config['logLevel'], write: (line: string) => void = console.log): Logger {
  const threshold = LEVELS[level]
  const at =
    (name: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[name] < threshold) return
      write(JSON.stringify({ time: new Date().toISOString(), level: name, msg: message, ...fields }))
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), notice: at('notice') }
}
