import type { Queryable } from '@chatsearch/shell'
import { hashPassword } from '../password.js'

export interface User { id: number, username: string, created_at: string }
export interface UserWithHash extends User { password_hash: string }

interface Row { id: string | number, username: string, created_at: Date, password_hash: string }
const userOf = (r: Row): User => ({ id: Number(r.id), username: r.username, created_at: r.created_at.toISOString() })

/** Creates a user; undefined when the username is taken. */
export async function createUser (db: Queryable, username: string, password: string): Promise<User | undefined> {
  const { rows } = await db.query<Row>(
    `INSERT INTO console_users (username, password_hash) VALUES ($1, $2)
     ON CONFLICT (username) DO NOTHING RETURNING id, username, created_at, password_hash`, [username, await hashPassword(password)])
  return rows[0] === undefined ? undefined : userOf(rows[0])
}

export async function findUser (db: Queryable, username: string): Promise<UserWithHash | undefined> {
  const { rows } = await db.query<Row>('SELECT id, username, created_at, password_hash FROM console_users WHERE username = $1', [username])
  const row = rows[0]
  return row === undefined ? undefined : { ...userOf(row), password_hash: row.password_hash }
}

export async function listUsers (db: Queryable): Promise<User[]> {
  const { rows } = await db.query<Row>('SELECT id, username, created_at, password_hash FROM console_users ORDER BY username')
  return rows.map(userOf)
}

/** Deletes a user with their memberships and sessions; false when there is none. */
export async function deleteUser (db: Queryable, username: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM console_users WHERE username = $1', [username])
  return rowCount === 1
}

/** Sets a new password and ends the user's sessions; false when there is no such user. */
export async function setPassword (db: Queryable, username: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>('UPDATE console_users SET password_hash = $2 WHERE username = $1 RETURNING id', [username, await hashPassword(password)])
  if (rows[0] === undefined) return false
  await db.query('DELETE FROM console_sessions WHERE user_id = $1', [rows[0].id])
  return true
}
