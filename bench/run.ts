/**
 * What `npm run bench` runs: the throughput (bench/throughput/), then the costs measured
 * in-process, one section each: the WebAssembly decoders (bench/decoders/), quality=auto's cost
 * against a fixed quality (bench/smart-cost/auto-cost.ts), what format=auto and maxBytes cost
 * against one encode of their answer (bench/smart-cost/smart-cost.ts), and how CPU and memory
 * grow with the image's size (bench/cost-growth/).
 * Usage: bun bench/run.ts [--concurrency 4] [--requests 60] [--rounds 3] [--auto-rounds 3] [--throughput-only] [--json]
 */
import { parseArgs } from 'node:util'
import { runBenchMain } from './common/server.ts'
import {
  benchThroughput,
  exitCodeFor,
  positiveInt,
  THROUGHPUT_OPTIONS,
  throughputSettings,
} from './throughput/throughput.ts'
import { benchAutoCost } from './smart-cost/auto-cost.ts'
import { benchCostGrowth } from './cost-growth/cost-growth.ts'
import { benchDecoders } from './decoders/decoders.ts'
import { benchSmartCost } from './smart-cost/smart-cost.ts'

/** The costs measured in-process after the throughput, one section each. */
async function costs(json: boolean, autoRounds: number): Promise<void> {
  // With --json, stdout carries only the throughput's JSON object.
  const print = json ? console.error : console.log
  // The WebAssembly decoders (HEIC, JPEG XL) per megapixel against libvips decoding a JPEG.
  print(await benchDecoders(12))
  // quality=auto's cost against one fixed-quality encode, per format.
  print(await benchAutoCost(autoRounds))
  // format=auto and maxBytes against one plain encode of their answer.
  print(await benchSmartCost(autoRounds))
  // CPU and memory per output megapixel at 1, 4, 16 and 64 MP.
  print(await benchCostGrowth(false))
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      ...THROUGHPUT_OPTIONS,
      'auto-rounds': { type: 'string', default: '3' },
      'throughput-only': { type: 'boolean', default: false },
    },
  })
  const run = throughputSettings(values)
  const autoRounds = positiveInt('auto-rounds', values['auto-rounds'])
  const failures = await benchThroughput(run, values.json)
  if (failures === undefined) return 0
  if (!values['throughput-only']) await costs(values.json, autoRounds)
  return exitCodeFor(failures)
}

runBenchMain(main)
