/** The API key lives in this tab only: sessionStorage, never a cookie or localStorage. */
const STORAGE = 'imgapi-api-key'

export function savedKey(): string | undefined {
  return sessionStorage.getItem(STORAGE) || undefined
}

export function saveKey(key: string): void {
  if (key.trim()) sessionStorage.setItem(STORAGE, key.trim())
  else sessionStorage.removeItem(STORAGE)
}

export function authorization(): Record<string, string> {
  const key = savedKey()
  return key ? { Authorization: `Bearer ${key}` } : {}
}

const listeners = new Set<() => void>()

/**
 * The reader has given a key ("Use this key", or leaving the field): what waits for one may go.
 * Not on every keystroke, which would send each half-typed key.
 */
export function keyGiven(): void {
  for (const listener of listeners) listener()
}

export function whenKeyGiven(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
