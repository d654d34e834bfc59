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
