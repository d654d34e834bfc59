// fetch() that retries when imgapi is busy (429 RATE_LIMITED, 503 OVERLOADED), as the server asks.
// Usage: const response = await fetchWithBackoff(`${IMGAPI_URL}/api/compress`, { method: 'POST', body })

const RETRYABLE = new Set([429, 503])

// `init.body` is sent again on every attempt, so it must be re-sendable: a Blob, File, FormData,
// string or Uint8Array. A ReadableStream is consumed by the first attempt and cannot be.
export async function fetchWithBackoff(url, init, { attempts = 5, baseMs = 500, capMs = 8000 } = {}) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, init)
    // Other statuses, 4xx included, will not change by asking again.
    if (!RETRYABLE.has(response.status) || attempt >= attempts) return response

    // The server's Retry-After (in seconds) says when a worker is likely free; without one, wait
    // a random time up to an exponentially growing cap ("full jitter"), so clients spread out.
    const retryAfter = Number(response.headers.get('Retry-After'))
    const waitMs =
      retryAfter > 0 ? retryAfter * 1000 : Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1))
    await response.body?.cancel() // free the connection; this answer is not used
    await new Promise((resolve) => setTimeout(resolve, waitMs))
  }
}
