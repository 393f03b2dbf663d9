/**
 * The one way the pages talk to the console's JSON API: the session cookie goes along by itself, the
 * CSRF token is added to every state-changing request, an error body becomes an ApiError, and a lost
 * session sends the user to the sign-in page.
 */
import type { ErrorBody } from './types.js'

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  /** Seconds to wait, from Retry-After, when the request was throttled. */
  readonly retryAfter: number | undefined

  constructor (status: number, code: string, message: string, retryAfter?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.retryAfter = retryAfter
  }
}

let csrfToken: string | undefined
let onUnauthorized: () => void = () => { window.location.assign('/signin') }

/** Remembers the token of the session just opened or read (null when signed out). */
export function setCsrfToken (token: string | null) {
  csrfToken = token ?? undefined
}

/** What to do when the session has gone (expired, signed out elsewhere): the app routes to /signin. */
export function setUnauthorizedHandler (handler: () => void) {
  onUnauthorized = handler
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface RequestOptions {
  method?: string
  /** A plain object or array is sent as JSON; a FormData, Blob or string as it is. */
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Leave a 401 to the caller (the sign-in form) instead of routing to /signin. */
  allowUnauthorized?: boolean
}

function isRawBody (body: unknown): body is BodyInit {
  return typeof body === 'string' || body instanceof FormData || body instanceof Blob || body instanceof ArrayBuffer || body instanceof URLSearchParams
}

async function errorOf (response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN)
  let body: Partial<ErrorBody> = {}
  try {
    body = await response.json() as Partial<ErrorBody>
  } catch {
    // Not JSON (a proxy's error page): the status alone says what happened.
  }
  return new ApiError(
    response.status,
    body.code ?? 'http_' + String(response.status),
    body.message ?? `The server answered ${response.status} ${response.statusText}`.trim(),
    Number.isFinite(retryAfter) ? retryAfter : undefined
  )
}

/** Reads the session's current CSRF token; false when there is no session. */
async function refreshCsrfToken (): Promise<boolean> {
  try {
    const response = await fetch('/api/session', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
    if (!response.ok) return false
    setCsrfToken((await response.json() as { csrf_token: string }).csrf_token)
    return true
  } catch {
    return false
  }
}

/** Sends a request and answers the raw response once it is known to be a success (2xx). */
export async function send (path: string, options: RequestOptions = {}): Promise<Response> {
  const method = (options.method ?? 'GET').toUpperCase()
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  let body: BodyInit | undefined
  if (options.body !== undefined) {
    if (isRawBody(options.body)) {
      body = options.body
    } else {
      body = JSON.stringify(options.body)
      headers['content-type'] = 'application/json'
    }
  }
  const attempt = async () => {
    if (!SAFE_METHODS.has(method) && csrfToken !== undefined) headers['x-csrf-token'] = csrfToken
    try {
      return await fetch(path, { method, headers, body, credentials: 'same-origin', signal: options.signal ?? null })
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err
      throw new ApiError(0, 'network_error', 'The console cannot be reached. Check your connection and try again.')
    }
  }
  let response = await attempt()
  if (response.ok) return response
  let error = await errorOf(response)
  // A sign-in in another tab replaced the session and its token: take the new one and try once more.
  if (error.code === 'csrf_failed' && await refreshCsrfToken()) {
    response = await attempt()
    if (response.ok) return response
    error = await errorOf(response)
  }
  if (response.status === 401 && options.allowUnauthorized !== true) {
    setCsrfToken(null)
    onUnauthorized()
  }
  throw error
}

/** Sends a request and answers its JSON body (undefined for 204 No Content). */
export async function request<T> (path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options)
  if (response.status === 204) return undefined as T
  return await response.json() as T
}

export const get = <T>(path: string, signal?: AbortSignal) => request<T>(path, signal === undefined ? {} : { signal })
export const post = <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body })
export const put = <T>(path: string, body: unknown) => request<T>(path, { method: 'PUT', body })
export const patch = <T>(path: string, body: unknown) => request<T>(path, { method: 'PATCH', body })
export const del = <T = undefined>(path: string) => request<T>(path, { method: 'DELETE' })

/** A message for the user from whatever was thrown. */
export function messageOf (err: unknown): string {
  if (err instanceof ApiError) {
    if (err.retryAfter !== undefined && err.status === 429) return `${err.message} Try again in ${err.retryAfter} s.`
    return err.message
  }
  return err instanceof Error ? err.message : String(err)
}

/** A path under /api/projects/:id, its parts encoded. */
export function projectPath (projectId: string, ...parts: string[]): string {
  return ['/api/projects', encodeURIComponent(projectId), ...parts.map(encodeURIComponent)].join('/')
}

/** A query string of the defined, non-empty values ('' when there are none). */
export function query (params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text === '' ? '' : '?' + text
}
