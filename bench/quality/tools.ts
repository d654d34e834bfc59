/*
 * The Debian tools quality.ts compares imgapi with and scores every output by: whether
 * they are installed (the bench never installs them; it names the one command that does), and
 * how one of them is run and timed.
 */

/** scikit-image and Pillow are Debian's: pyenv or venv interpreters earlier on PATH lack them. */
export const PYTHON = '/usr/bin/python3'

interface Requirement {
  readonly package: string
  readonly present: () => boolean
}

const onPath = (command: string) => () => Bun.which(command) !== null
const pythonHas = (module: string) => () =>
  Bun.spawnSync([PYTHON, '-c', `import ${module}`], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0

const REQUIREMENTS: readonly Requirement[] = [
  { package: 'jpegoptim', present: onPath('jpegoptim') },
  { package: 'webp', present: () => onPath('cwebp')() && onPath('dwebp')() },
  { package: 'libavif-bin', present: () => onPath('avifenc')() && onPath('avifdec')() },
  { package: 'pngquant', present: onPath('pngquant') },
  { package: 'optipng', present: onPath('optipng') },
  { package: 'libvips-tools', present: onPath('vips') },
  { package: 'python3-skimage', present: pythonHas('skimage.metrics') },
  { package: 'python3-pil', present: pythonHas('PIL.Image') },
]

/** The packages missing here, as the single command that installs them; undefined when none is. */
export function missingToolsCommand(): string | undefined {
  const missing = REQUIREMENTS.filter((requirement) => !requirement.present()).map((r) => r.package)
  return missing.length === 0 ? undefined : `sudo apt-get install -y ${missing.join(' ')}`
}

/** Each tool's version line, for the results file. */
export function toolVersions(): Record<string, string> {
  const first = (command: string[]) => {
    const run = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
    const text = `${run.stdout.toString()}\n${run.stderr.toString()}`
    return (
      text
        .split('\n')
        .find((line) => /\d+\.\d+/.test(line))
        ?.trim() ?? 'unknown'
    )
  }
  return {
    jpegoptim: first(['jpegoptim', '--version']),
    cwebp: first(['cwebp', '-version']),
    avifenc: first(['avifenc', '--version']),
    pngquant: first(['pngquant', '--version']),
    optipng: first(['optipng', '-v']),
    vips: first(['vips', '--version']),
  }
}

export interface ToolRun {
  readonly wallMs: number
  /** User + system CPU of the child, from its rusage. */
  readonly cpuMs: number
  readonly stdout: Uint8Array
}

/** Runs a command to its end; a non-zero exit is an error carrying the command and its stderr. */
export async function runTool(command: readonly string[]): Promise<ToolRun> {
  const started = performance.now()
  const child = Bun.spawn([...command], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).bytes(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  const wallMs = performance.now() - started
  if (exitCode !== 0)
    throw new Error(`${command.join(' ')} exited with ${exitCode}: ${stderr.trim().slice(0, 300)}`)
  const usage = child.resourceUsage()
  const cpuMs = usage ? Number(usage.cpuTime.total) / 1000 : Number.NaN
  return { wallMs, cpuMs, stdout }
}
