import { ApiError, request, setCsrfToken } from './client.js'
import type { Session } from './types.js'

/** The signed-in user, or null when there is no session. */
export async function readSession (): Promise<Session | null> {
  try {
    const session = await request<Session>('/api/session', { allowUnauthorized: true })
    setCsrfToken(session.csrf_token)
    return session
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null
    throw err
  }
}

export async function signIn (username: string, password: string): Promise<Session> {
  const session = await request<Session>('/api/session', { method: 'POST', body: { username, password }, allowUnauthorized: true })
  setCsrfToken(session.csrf_token)
  return session
}

export async function signOut (): Promise<void> {
  try {
    await request('/api/session', { method: 'DELETE', allowUnauthorized: true })
  } finally {
    setCsrfToken(null)
  }
}
