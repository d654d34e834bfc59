import { afterAll, describe, expect, test } from 'bun:test'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { cliCommand, runCli } from '../helpers/cli.ts'
import { FIXTURES } from '../helpers/paths.ts'

const scratch = mkdtempSync(join(tmpdir(), 'imgapi-cli-files-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A folder of fixtures in sub-folders, with a text file and a JPEG whose name hides it. */
function photoFolder(name: string): string {
  const root = join(scratch, name)
  mkdirSync(join(root, 'trip/day-1'), { recursive: true })
  copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(root, 'trip/day-1/pier.jpg'))
  copyFileSync(join(FIXTURES, 'webp-lossy-alpha.webp'), join(root, 'trip/logo.webp'))
  copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(root, 'no-extension'))
  writeFileSync(join(root, 'notes.txt'), 'not an image')
  // A loop: the walker must not go round it.
  symlinkSync(root, join(root, 'trip/loop'))
  return root
}

const listed = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort()

describe('imgapi compress: files and folders', () => {
  test('a folder with sub-folders goes to --out with its structure and names kept, the new extension, formats and sizes as asked', async () => {
    const root = photoFolder('tree')
    const out = join(scratch, 'tree-out')
    const run = await runCli([root, '--out', out, '--format', 'webp', '--width', '200'])
    expect(run.stderr).toContain('files')
    expect(run.code).toBe(0)
    expect(listed(out)).toEqual([
      'no-extension.webp',
      'trip',
      'trip/day-1',
      'trip/day-1/pier.webp',
      'trip/logo.webp',
    ])
    for (const file of ['no-extension.webp', 'trip/day-1/pier.webp', 'trip/logo.webp']) {
      const meta = await sharp(join(out, file)).metadata()
      expect(meta.format).toBe('webp')
      expect(meta.width).toBe(200)
    }
    // Results only, one line per file, when standard output is no terminal.
    expect(run.text.trim().split('\n')).toHaveLength(3)
  })

  test('standard input to standard output, the --json line on standard error', async () => {
    const input = await Bun.file(join(FIXTURES, 'photo-exif-orientation-6.jpg')).bytes()
    const run = await runCli(['-', '--format', 'avif', '--width', '120', '--json'], { stdin: input })
    expect(run.code).toBe(0)
    const meta = await sharp(run.stdout).metadata()
    expect(meta).toMatchObject({ format: 'heif', width: 120 })
    const line = JSON.parse(run.stderr.trim())
    expect(line).toMatchObject({
      file: '-',
      status: 'done',
      outputFormat: 'avif',
      compressedSize: run.stdout.length,
    })
  })

  test('files named one by one (a shell glob) with --suffix land beside their inputs', async () => {
    const dir = join(scratch, 'globbed')
    mkdirSync(dir)
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'a.jpg'))
    copyFileSync(join(FIXTURES, 'webp-lossy-alpha.webp'), join(dir, 'b.webp'))
    const run = await runCli([join(dir, 'a.jpg'), join(dir, 'b.webp'), '--suffix', '.min', '--width', '64'])
    expect(run.code).toBe(0)
    expect(readdirSync(dir).sort()).toEqual(['a.jpg', 'a.min.jpg', 'b.min.webp', 'b.webp'])
    expect((await sharp(join(dir, 'a.min.jpg')).metadata()).width).toBe(64)
  })

  test('a bad image on standard input fails with its code on standard error, exit 1', async () => {
    const run = await runCli(['-', '--json'], { stdin: new TextEncoder().encode('not an image') })
    expect(run.code).toBe(1)
    expect(run.stdout.length).toBe(0)
    expect(JSON.parse(run.stderr.trim())).toMatchObject({
      file: '-',
      status: 'failed',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    })
  })

  test('a file that would come out larger keeps the original, and says so', async () => {
    const out = join(scratch, 'larger-out')
    const input = join(FIXTURES, 'webp-lossy-alpha.webp')
    const run = await runCli([input, '--out', out, '--quality', '100', '--json'])
    expect(run.code).toBe(0)
    expect(run.lines[0]).toMatchObject({ status: 'done', result: 'original', saved: 0 })
    expect(await Bun.file(join(out, 'webp-lossy-alpha.webp')).bytes()).toEqual(await Bun.file(input).bytes())
    const human = await runCli([input, '--out', join(scratch, 'larger-human'), '--quality', '100'])
    expect(human.text).toContain('kept the original')
  })

  test('--max-bytes and --quality auto report their quality and similarity in --json', async () => {
    const input = join(FIXTURES, 'photo-exif-orientation-6.jpg')
    const target = await runCli([
      input,
      '--out',
      join(scratch, 'target'),
      '--format',
      'webp',
      '--max-bytes',
      '60k',
      '--json',
    ])
    expect(target.code).toBe(0)
    expect(target.lines[0]!.compressedSize).toBeLessThanOrEqual(60_000)
    expect(target.lines[0]!.quality).toBeNumber()
    expect(target.lines[0]!.similarity.score).toBeGreaterThan(0.5)
    const auto = await runCli([input, '--out', join(scratch, 'auto'), '--quality', 'auto-high', '--json'])
    expect(auto.lines[0]!.quality).toBeNumber()
    expect(auto.lines[0]!.similarity).toMatchObject({ metric: 'ssim' })
  })

  test('an existing output is kept unless --overwrite; --dry-run writes nothing', async () => {
    const input = join(FIXTURES, 'photo-exif-orientation-6.jpg')
    const out = join(scratch, 'exists')
    mkdirSync(out)
    writeFileSync(join(out, 'photo-exif-orientation-6.webp'), 'mine')
    const kept = await runCli([input, '--out', out, '--format', 'webp', '--json'])
    expect(kept.code).toBe(1)
    expect(kept.lines[0]).toMatchObject({ status: 'failed', code: 'OUTPUT_EXISTS' })
    expect(await Bun.file(join(out, 'photo-exif-orientation-6.webp')).text()).toBe('mine')
    const replaced = await runCli([input, '--out', out, '--format', 'webp', '--overwrite'])
    expect(replaced.code).toBe(0)
    expect((await sharp(join(out, 'photo-exif-orientation-6.webp')).metadata()).format).toBe('webp')
    const dry = await runCli([input, '--out', join(scratch, 'dry'), '--dry-run', '--json'])
    expect(dry.lines[0]).toMatchObject({ status: 'done', written: false })
    expect(existsSync(join(scratch, 'dry'))).toBe(false)
  })

  test('--in-place replaces the input atomically and leaves no temporary file', async () => {
    const dir = join(scratch, 'in-place')
    mkdirSync(dir)
    copyFileSync(join(FIXTURES, 'photo-exif-orientation-6.jpg'), join(dir, 'a.jpg'))
    const run = await runCli([dir, '--in-place', '--width', '100'])
    expect(run.code).toBe(0)
    expect(readdirSync(dir)).toEqual(['a.jpg'])
    expect((await sharp(join(dir, 'a.jpg')).metadata()).width).toBe(100)
  })

  test('an output folder inside the input folder is never walked into', async () => {
    const root = photoFolder('nested')
    const out = join(root, 'compressed')
    expect((await runCli([root, '--out', out, '--format', 'webp'])).code).toBe(0)
    const again = await runCli([root, '--out', out, '--format', 'webp', '--overwrite', '--json'])
    expect(again.lines.map((line) => line.file).filter((file) => file.includes('compressed'))).toEqual([])
    expect(again.lines).toHaveLength(3)
  })

  test('a reader that closes the pipe (| head) ends the command quietly', async () => {
    const root = photoFolder('piped')
    const command = [
      ...cliCommand(),
      'compress',
      root,
      '--dry-run',
      '--json',
      '--out',
      join(scratch, 'piped-out'),
    ]
    const quoted = command.map((part) => `'${part}'`).join(' ')
    const proc = Bun.spawn(
      ['bash', '-c', `${quoted} | head -n 1 >/dev/null; echo "exit \${PIPESTATUS[0]}" >&2`],
      {
        stderr: 'pipe',
      },
    )
    const stderr = await new Response(proc.stderr).text()
    expect(stderr).toContain('exit 0')
    expect(stderr).not.toContain('EPIPE')
  })

  test('usage errors exit 2 naming the flag and the API option; --help prints the compress help', async () => {
    const bad = await runCli([join(FIXTURES, 'webp-lossy-alpha.webp'), '--quality', '120'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--quality (the API's quality): expected an integer from 1 to 100")
    expect((await runCli([])).code).toBe(2)
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    expect(help.text).toContain('Usage: imgapi compress')
    expect(help.text).toContain('--max-bytes <size>')
  })
})
