/**
 * Settings read back from a preset (localStorage or an imported file) are untrusted: each field
 * is kept only when it has the type the defaults have, so an old or edited preset cannot break
 * a tool.
 */
export function restoreSettings<S extends object>(defaults: S, saved: unknown): S {
  if (!saved || typeof saved !== 'object') return defaults
  const out: Record<string, unknown> = { ...(defaults as unknown as Record<string, unknown>) }
  for (const [key, value] of Object.entries(saved as Record<string, unknown>))
    if (key in defaults && typeof value === typeof (defaults as unknown as Record<string, unknown>)[key])
      out[key] = value
  return out as S
}
