// How an outbound HTTP request (undici) failed, as the crawler and the webhook sender report it.

/** undici's own timeouts: connecting, the answer's headers, or a pause in its body. */
export function isUndiciTimeout (err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT'
}

/** The system's error code behind a failed request (ECONNREFUSED, ENOTFOUND, …), else its message. */
export function networkErrorCode (err: unknown): string {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code
    if (typeof code === 'string' && !code.startsWith('UND_ERR_')) return code
  }
  return err instanceof Error ? err.message : String(err)
}
