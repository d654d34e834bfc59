/**
 * The "billion laughs" of SVG, without entities: `levels` nested <g id="aN">, each holding `fan`
 * <use href="#aN-1"/>, so a few KB ask for about fan^levels draws. (10, 10) took 2.5-3 s of
 * librsvg before the cost bound refused it.
 */
export function nestedUses(levels: number, fan: number): string {
  let body = '<defs><g id="a0"><rect width="1" height="1"/></g>'
  for (let i = 1; i < levels; i++) body += `<g id="a${i}">${`<use href="#a${i - 1}"/>`.repeat(fan)}</g>`
  return `${body}</defs><use href="#a${levels - 1}"/>`
}
