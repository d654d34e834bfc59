import type { Gravity } from '../../options/image-options.ts'

/** The API's nine positions in sharp's compass words, which resize and composite both take. */
export const SHARP_GRAVITY: Readonly<Record<Gravity, string>> = {
  centre: 'centre',
  top: 'north',
  'top-right': 'northeast',
  right: 'east',
  'bottom-right': 'southeast',
  bottom: 'south',
  'bottom-left': 'southwest',
  left: 'west',
  'top-left': 'northwest',
}
