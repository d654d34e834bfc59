import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../helpers/api.ts'
import { HAS_CORPUS, announceCorpusSkip, corpusFile } from '../helpers/paths.ts'
import { FORMAT_CASES } from '../helpers/readback-format-cases.ts'
import { runCase, type ReadbackCase } from '../helpers/readback-runner.ts'
import { PAINT_AND_METADATA_CASES } from '../helpers/readback-common-cases.ts'
import { loadSample } from '../helpers/readback-samples.ts'
import { CONCURRENT_SUITE, READABLE_ROWS } from './support.ts'

announceCorpusSkip('option read-back matrix')

/*
 * The option x format read-back cases (tests/helpers/readback-*.ts) on kinds of input the
 * fixtures lack: a large EXIF photo, a greyscale JPEG, an RGBA screenshot, a 16-bit PNG and an
 * animated GIF with transparency. Two groups run on the fixtures only, to keep this suite fast:
 * which options are listed as ignored does not depend on the input, and sizes are checked
 * corpus-wide by resize.test.ts (tests/routes/option-readback.test.ts runs everything).
 */
const FILES = [
  'photo-pier-4mp.jpg',
  'photo-architecture-4mp-grayscale.jpg',
  'png-screenshot-rgba-marble.png',
  'png-photo-16bit-rgb.png',
  'gif-animated-10frames.gif',
]
const SAMPLES = HAS_CORPUS
  ? await Promise.all(FILES.map(async (f) => loadSample(f, await corpusFile(f))))
  : []
const CASES: readonly ReadbackCase[] = [...FORMAT_CASES, ...PAINT_AND_METADATA_CASES]

describe.skipIf(!HAS_CORPUS)('option read-back on the corpus', () => {
  let api: Api
  beforeAll(async () => {
    // Cases send their requests at once; the queue must hold every test's requests.
    api = await startApi({ ...CONCURRENT_SUITE, queueLength: 1000 })
  })
  afterAll(async () => {
    await api.stop()
  })

  test('the chosen inputs are readable corpus files', () => {
    const readable = READABLE_ROWS.map((r) => r.file)
    for (const file of FILES) expect(readable).toContain(file)
  })

  for (const c of CASES) {
    for (const sample of SAMPLES.filter((s) => !c.when || c.when(s))) {
      test.concurrent(`${c.behaviour} (${sample.name})`, () => runCase(api, c, sample))
    }
  }
})
