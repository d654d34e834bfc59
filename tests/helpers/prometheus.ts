/**
 * Reads values out of the Prometheus text format for assertions. Whether the text is valid is
 * judged by Prometheus's own tool (`promtoolCheck`), not by this reader.
 */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Exposition {
  /** `# TYPE` of each family. */
  readonly types: ReadonlyMap<string, string>
  readonly samples: readonly Sample[]
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

export function parseMetrics(text: string): Exposition {
  const types = new Map<string, string>()
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ')
      types.set(name!, type!)
      continue
    }
    if (line === '' || line.startsWith('#')) continue
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = JSON.parse(`"${value}"`)
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return { types, samples }
}

/** Samples named `name` whose labels include `labels`. */
export function samples(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
}

/** The one value with these labels; 0 when no such series exists yet. */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = samples(exposition, name, labels)
  if (found.length > 1) throw new Error(`${found.length} series of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value ?? 0
}

/** Runs Prometheus's own linter on the text; undefined when promtool is not installed. */
export function promtoolCheck(
  text: string,
): { readonly exitCode: number; readonly output: string } | undefined {
  const promtool = Bun.which('promtool')
  if (!promtool) return undefined
  const run = Bun.spawnSync([promtool, 'check', 'metrics'], { stdin: new TextEncoder().encode(text) })
  return { exitCode: run.exitCode, output: run.stdout.toString() + run.stderr.toString() }
}
