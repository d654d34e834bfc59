import { env } from '../../kit/env.ts'
import { Choices } from '../../kit/ui/fields.tsx'
import { PositionPicker } from '../../kit/ui/PositionPicker.tsx'

/** What Resize adds to a size: where the image sits or what its crop keeps, and the pixel density. */
export interface Placement {
  readonly fit: string
  readonly position: string
  readonly dpr: number
}

/** Densities offered: standard screens, high-density ones and the densest phones. */
const DENSITIES = [1, 2, 3]

/** `position` matters when the image fills the size (what stays) or sits in it with bands. */
const placed = (fit: string) => fit === 'cover' || fit === 'contain'

/** The schema's positions; the smart ones (attention, entropy) judge what to keep, so only for cover. */
function positions(fit: string): readonly string[] {
  const facts = env().data.options.position
  const values = facts?.kind === 'enum' ? facts.values : []
  return fit === 'cover' ? values : values.filter((value) => value !== 'attention' && value !== 'entropy')
}

export function placementOptions(settings: Placement, sized: boolean, query: URLSearchParams): void {
  const position = settings.position
  if (sized && placed(settings.fit) && position !== 'centre' && positions(settings.fit).includes(position))
    query.set('position', position)
  if (settings.dpr !== 1) query.set('dpr', String(settings.dpr))
}

export function PlacementFields(props: {
  settings: Placement
  /** Both a width and a height are given, so the fit (and with it the position) applies. */
  sized: boolean
  set(next: Partial<Placement>): void
}) {
  const { t } = env()
  const { fit, position, dpr } = props.settings
  const values = positions(fit)
  return (
    <>
      {props.sized && placed(fit) && (
        <PositionPicker
          name="position"
          legend={t(fit === 'cover' ? 'resize.positionCover' : 'resize.positionContain')}
          values={values}
          smart={fit === 'cover'}
          value={values.includes(position) ? position : 'centre'}
          onChange={(value) => props.set({ position: value })}
        />
      )}
      <Choices
        class="segmented"
        legend={t('resize.dpr')}
        name="dpr"
        value={String(dpr)}
        choices={DENSITIES.map((density) => ({
          value: String(density),
          label: t(`resize.dprName.x${density}`),
        }))}
        onChange={(value) => props.set({ dpr: Number(value) })}
      />
      <p class="hint dpr-hint">{t('resize.dprHint')}</p>
    </>
  )
}
