/**
 * A small picture per fit mode: the dashed frame is the size asked for, the filled shape the
 * image. Drawn in the page's colours; purely illustrative (the label says it in words).
 */
const SHAPES: Record<string, { image: [number, number, number, number]; crop?: boolean; bars?: boolean }> = {
  cover: { image: [4, 10, 56, 36], crop: true },
  contain: { image: [14, 14, 36, 28], bars: true },
  fill: { image: [10, 14, 44, 28] },
  inside: { image: [16, 17, 32, 22] },
  outside: { image: [4, 10, 56, 36] },
}

export function FitPicture({ fit }: { fit: string }) {
  const shape = SHAPES[fit]
  if (!shape) return null
  const [x, y, w, h] = shape.image
  return (
    <svg class="fit-picture" viewBox="0 0 64 56" aria-hidden="true">
      {shape.bars && <rect x="10" y="14" width="44" height="28" class="fit-bars" />}
      <rect
        x={x}
        y={y}
        width={w}
        height={h}
        rx="2"
        class={shape.crop ? 'fit-image fit-cropped' : 'fit-image'}
      />
      {shape.crop && <rect x="10" y="14" width="44" height="28" class="fit-image" />}
      <rect x="10" y="14" width="44" height="28" class="fit-frame" />
      <path
        d={`M${x + 6} ${y + h - 4}l8-9 6 6 5-4 8 7z`}
        class="fit-motif"
        transform={fit === 'fill' ? '' : undefined}
      />
    </svg>
  )
}
