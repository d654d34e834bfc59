/**
 * The known name a mistyped one most likely meant: the same name in another case, or one at
 * most two edits away (a letter missing, added, changed or two swapped: `qualty`, `widht`).
 * Undefined when nothing is that close, so a guess is never a wild one.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const sameCase = known.find((candidate) => candidate.toLowerCase() === lower)
  if (sameCase) return sameCase
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance }
  }
  return best?.name
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  // Names longer than any option cannot be two edits from one.
  if (Math.abs(a.length - b.length) > 2) return Infinity
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = d
    }
  }
  return rows[a.length]![b.length]!
}
