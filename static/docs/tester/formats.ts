/** The formats this server publishes (GET /api/formats): ranges and options per output. */
export interface Range {
  readonly min: number
  readonly max: number
  readonly default: number
}

export interface PublishedFormat {
  readonly id: string
  readonly aliases: readonly string[]
  readonly mime: string
  readonly output: boolean
  readonly metadata: boolean
  readonly tunables: Readonly<Record<string, Partial<Range> & { default: unknown }>>
}

/** With the reader's key, if any: a server may require one for this list too. */
export async function fetchFormats(apiKey?: string): Promise<PublishedFormat[]> {
  const response = await fetch('/api/formats', {
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
  })
  if (!response.ok) return []
  return ((await response.json()) as { formats: PublishedFormat[] }).formats
}

/** The format a `format=` value names (an id or an alias), if this server writes it. */
export function findFormat(formats: readonly PublishedFormat[], name: string): PublishedFormat | undefined {
  return formats.find((f) => f.output && (f.id === name || f.aliases.includes(name)))
}

/**
 * Options that only some outputs take, as the server's formats declare them (the rest: size,
 * fit, background… apply to every output). Read from the list, so an option a format gains
 * is narrowed here with no change to this page.
 */
export function tunableOptions(formats: readonly PublishedFormat[]): string[] {
  return [...new Set(formats.flatMap((format) => Object.keys(format.tunables)))]
}
