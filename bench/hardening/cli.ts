/* The command line of bench/hardening/hardening.ts. */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { RunOptions } from './harness.ts'

export const USAGE =
  'Usage: bun bench/hardening/hardening.ts [--quick] [--only <scenario>[,<scenario>...]] [--binary <path>]'

export interface Cli extends RunOptions {
  readonly only: readonly string[]
}

export function parseCli(argv: readonly string[], names: readonly string[]): Cli {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      binary: { type: 'string' },
    },
  })
  const only = values.only ? values.only.split(',').map((name) => name.trim()) : []
  const unknown = only.filter((name) => !names.includes(name))
  if (unknown.length > 0) {
    throw new Error(`unknown scenario ${unknown.join(', ')}; expected one of ${names.join(', ')}`)
  }
  const binary = values.binary ? resolve(values.binary) : undefined
  if (binary && !existsSync(binary)) throw new Error(`--binary ${binary}: no such file (npm run build?)`)
  return { quick: values.quick, only, ...(binary ? { binary } : {}) }
}
