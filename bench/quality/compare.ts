/*
 * Bytes at equal-or-better similarity. A peer's ladder is reduced to its frontier (each rung
 * that scores higher than every smaller one), and the bytes the peer needs to reach a score are
 * interpolated between the two rungs around it: log(bytes) linearly in log(1 - SSIM), the axes
 * on which both grow close to linearly with the quality setting. Past either end of a ladder
 * the end rung is used, and the ratio is marked as a bound.
 */
import type { Codec, ImageClass } from '../common/corpus.ts'

export interface Output {
  readonly id: string
  readonly image: string
  readonly imageClass: ImageClass
  readonly format: Codec
  /** 'imgapi' or the peer's name. */
  readonly producer: string
  readonly setting: string
  readonly bytes: number
  readonly wallMs: number
  readonly cpuMs: number
  readonly quality?: number
  readonly encodes?: number
  /** imgapi's answer when not a new encode: 'original' or 'optimised' (the input, never larger). */
  readonly kind?: string
  /** imgapi's own score of its output, when a search measured it. */
  readonly imgapiSsim?: number
  readonly targetBytes?: number
  readonly error?: string
  /** scikit-image's score, the one every comparison uses. */
  ssim?: number
}

/**
 * 'inside' the ladder; 'below': the peer's smallest rung already scores as well (it might go
 * smaller, so imgapi's ratio is at least this); 'above': the peer's best rung falls short (it
 * needs more bytes than its largest, so imgapi's ratio is at most this).
 */
export type Bound = 'inside' | 'below' | 'above'

export interface PeerBytes {
  readonly bytes: number
  readonly bound: Bound
}

interface Point {
  readonly bytes: number
  readonly ssim: number
}

export function frontier(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.bytes - b.bytes || b.ssim - a.ssim)
  const kept: Point[] = []
  for (const point of sorted) if (point.ssim > (kept.at(-1)?.ssim ?? -Infinity)) kept.push(point)
  return kept
}

const lossAxis = (ssim: number) => Math.log(Math.max(1e-6, 1 - ssim))

/** The bytes a peer needs to score at least `ssim`, along its frontier. */
export function bytesAt(edge: readonly Point[], ssim: number): PeerBytes | undefined {
  const first = edge[0]
  const last = edge.at(-1)
  if (!first || !last) return undefined
  if (ssim <= first.ssim) return { bytes: first.bytes, bound: 'below' }
  if (ssim > last.ssim) return { bytes: last.bytes, bound: 'above' }
  const upper = edge.findIndex((point) => point.ssim >= ssim)
  const a = edge[upper - 1]!
  const b = edge[upper]!
  const t = (lossAxis(ssim) - lossAxis(a.ssim)) / (lossAxis(b.ssim) - lossAxis(a.ssim))
  return { bytes: Math.exp(Math.log(a.bytes) + t * (Math.log(b.bytes) - Math.log(a.bytes))), bound: 'inside' }
}

export interface Ratio {
  readonly peer: string
  readonly ratio: number
  readonly bound: Bound
}

export interface Comparison {
  readonly output: Output
  readonly perPeer: readonly Ratio[]
  /** Against the peer that needs the fewest bytes for the same score. */
  readonly best?: Ratio
}

const key = (o: Pick<Output, 'image' | 'format'>) => `${o.image}\u0000${o.format}`

/** Every scored imgapi output against every peer ladder of the same image and format. */
export function compareAll(outputs: readonly Output[]): Comparison[] {
  const ladders = new Map<string, Map<string, Point[]>>()
  for (const o of outputs) {
    if (o.producer === 'imgapi' || o.ssim === undefined) continue
    const peers = ladders.get(key(o)) ?? new Map<string, Point[]>()
    peers.set(o.producer, [...(peers.get(o.producer) ?? []), { bytes: o.bytes, ssim: o.ssim }])
    ladders.set(key(o), peers)
  }
  const comparisons: Comparison[] = []
  for (const output of outputs) {
    if (output.producer !== 'imgapi' || output.ssim === undefined || output.error) continue
    const perPeer: Ratio[] = []
    for (const [peer, points] of ladders.get(key(output)) ?? []) {
      const needed = bytesAt(frontier(points), output.ssim)
      if (needed) perPeer.push({ peer, ratio: output.bytes / needed.bytes, bound: needed.bound })
    }
    const best = perPeer.reduce<Ratio | undefined>((b, r) => (!b || r.ratio > b.ratio ? r : b), undefined)
    comparisons.push({ output, perPeer, ...(best ? { best } : {}) })
  }
  return comparisons
}
