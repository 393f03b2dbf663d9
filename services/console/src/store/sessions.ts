import { createHash, randomBytes } from 'node:crypto'
import type { Queryable } from '@chatsearch/shell'

export interface Session { userId: number, username: string, csrfToken: string, expiresAt: Date }

/** Only this is stored: the session id itself exists in the cookie alone. */
const hashOf = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest()

/** Opens a session of `ttlMs`; returns the id for the cookie (256 random bits) and its CSRF token. */
export async function createSession (db: Queryable, userId: number, ttlMs: number): Promise<{ id: string, csrfToken: string }> {
  const id = randomBytes(32).toString('base64url')
  const csrfToken = randomBytes(32).toString('base64url')
  await db.query(
    `INSERT INTO console_sessions (id_hash, user_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [hashOf(id), userId, csrfToken, ttlMs / 1000])
  return { id, csrfToken }
}

/** The live session with this id; an expired one is deleted on the way. */
export async function findSession (db: Queryable, id: string): Promise<Session | undefined> {
  const { rows } = await db.query<{ user_id: string, username: string, csrf_token: string, expires_at: Date, live: boolean }>(
    `SELECT s.user_id, u.username, s.csrf_token, s.expires_at, s.expires_at > now() AS live
     FROM console_sessions s JOIN console_users u ON u.id = s.user_id WHERE s.id_hash = $1`, [hashOf(id)])
  const row = rows[0]
  if (row === undefined) return undefined
  if (!row.live) {
    await deleteSession(db, id)
    return undefined
  }
  return { userId: Number(row.user_id), username: row.username, csrfToken: row.csrf_token, expiresAt: row.expires_at }
}

export async function deleteSession (db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [hashOf(id)])
}

/** Removes sessions that ended; they are refused anyway, this only keeps the table small. */
export async function deleteExpiredSessions (db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM console_sessions WHERE expires_at <= now()')
  return rowCount ?? 0
}
