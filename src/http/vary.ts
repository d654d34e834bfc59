/**
 * `Vary` built in one place. A route's own `Vary` used to replace the one CORS had set, so a
 * shared cache could serve one origin's response to another. Every part of the app adds to the
 * same list instead, and nothing sets the header whole.
 */
export function addVary(headers: Record<string, string | number>, ...names: string[]): void {
  const current = String(headers.vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
  for (const name of names) {
    if (!current.some((v) => v.toLowerCase() === name.toLowerCase())) current.push(name)
  }
  if (current.length > 0) headers.vary = current.join(', ')
}
