/**
 * The label a request is counted under: the template of the route it matched, never its raw
 * path, so a flood of made-up paths adds no new series. Anything else is "unmatched".
 */
export const UNMATCHED = 'unmatched'

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other'
}

export function routeLabeler(templates: Iterable<string>): (pathname: string) => string {
  const exact = new Set<string>()
  const patterns: { readonly template: string; readonly segments: readonly string[] }[] = []
  for (const template of templates) {
    if (template.includes('/:')) patterns.push({ template, segments: template.split('/') })
    else exact.add(template)
  }
  return (pathname) => {
    if (exact.has(pathname)) return pathname
    const segments = pathname.split('/')
    for (const pattern of patterns) {
      if (pattern.segments.length !== segments.length) continue
      const matches = pattern.segments.every((expected, i) =>
        expected.startsWith(':') ? segments[i] !== '' : expected === segments[i],
      )
      if (matches) return pattern.template
    }
    return UNMATCHED
  }
}
