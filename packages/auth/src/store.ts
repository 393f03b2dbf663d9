import { fileURLToPath } from 'node:url'
import type { Queryable } from '@chatsearch/shell'
import { generateKey, hashKey, keyHint, newId, type Service } from './credential.js'
import { checkOrigins, InvalidOriginsError } from './widget.js'
import { REVOCATION_NOTIFY } from './revocation.js'

export const authMigrations = fileURLToPath(new URL('../migrations', import.meta.url))

export interface Project { id: string, name: string, created_at: string }
export interface KeyInfo {
  id: string
  project_id: string
  service: Service
  username: string
  hint: string
  /** The exact origins a widget key is accepted from; empty for the other services' keys. */
  origins: string[]
  created_at: string
  /** When the key last authenticated a request, within LAST_USED_FLUSH_MS; null if never. */
  last_used_at: string | null
  revoked_at: string | null
}
export interface CreatedKey { id: string, key: string, project_id: string, service: Service, username: string, origins: string[] }
export interface Principal {
  projectId: string
  keyId: string
  service: Service
  username: string
  /**
   * The one consumer whose chats this caller may act on, when it is bound to one (decision 18: a
   * widget key's consumer token, or the shop's verified customer); absent, every consumer of the project.
   */
  consumerId?: string
  /** The token naming consumerId that the browser sends back in X-Consumer-Token (widget keys only). */
  consumerToken?: string
  /** The origins a widget key is accepted from (widget keys only). */
  origins?: string[]
}

const iso = (d: Date | null) => d === null ? null : d.toISOString()

export async function createProject (db: Queryable, name: string): Promise<Project> {
  const { rows } = await db.query<{ id: string, name: string, created_at: Date }>(
    'INSERT INTO projects (id, name) VALUES ($1, $2) RETURNING id, name, created_at', [newId('prj'), name])
  const row = rows[0]!
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString() }
}

export async function listProjects (db: Queryable): Promise<Project[]> {
  const { rows } = await db.query<{ id: string, name: string, created_at: Date }>(
    'SELECT id, name, created_at FROM projects ORDER BY created_at, id')
  return rows.map((r) => ({ id: r.id, name: r.name, created_at: r.created_at.toISOString() }))
}

export async function getProject (db: Queryable, id: string): Promise<Project | undefined> {
  const { rows } = await db.query<{ id: string, name: string, created_at: Date }>(
    'SELECT id, name, created_at FROM projects WHERE id = $1', [id])
  const row = rows[0]
  return row === undefined ? undefined : { id: row.id, name: row.name, created_at: row.created_at.toISOString() }
}

/**
 * Issues a key; the secret exists only in the returned value, the database keeps its hash. A widget
 * key needs its allowed origins (checked by checkOrigins); the other keys take none.
 */
export async function createKey (db: Queryable, projectId: string, service: Service, username: string, origins: readonly string[] = []): Promise<CreatedKey> {
  if (service !== 'widget' && origins.length > 0) throw new InvalidOriginsError(`only widget keys are bound to origins; a ${service} key is for servers`)
  const allowed = service === 'widget' ? checkOrigins(origins) : []
  const id = newId('key')
  const key = generateKey(service)
  await db.query(
    `INSERT INTO api_keys (id, project_id, service, username, key_hash, key_hint, origins)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, projectId, service, username, hashKey(key), keyHint(key), allowed])
  return { id, key, project_id: projectId, service, username, origins: allowed }
}

export async function listKeys (db: Queryable, projectId: string): Promise<KeyInfo[]> {
  const { rows } = await db.query<{ id: string, project_id: string, service: Service, username: string, key_hint: string, origins: string[], created_at: Date, last_used_at: Date | null, revoked_at: Date | null }>(
    `SELECT id, project_id, service, username, key_hint, origins, created_at, last_used_at, revoked_at
     FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`, [projectId])
  return rows.map((r) => ({
    id: r.id,
    project_id: r.project_id,
    service: r.service,
    username: r.username,
    hint: r.key_hint,
    origins: r.origins,
    created_at: r.created_at.toISOString(),
    last_used_at: iso(r.last_used_at),
    revoked_at: iso(r.revoked_at)
  }))
}

/**
 * Revokes a key; false when no such key exists. Revoking twice keeps the first revocation time.
 * The same statement NOTIFYs the services listening on PostgreSQL (delivered at commit); with
 * Redis, also call `publishRevocation`.
 */
export async function revokeKey (db: Queryable, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH revoked AS (UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id)
     SELECT pg_notify($2, id) FROM revoked`, [keyId, REVOCATION_NOTIFY])
  return rowCount === 1
}

/** Marks the keys as used now (LastUsed calls it in batches). */
export async function touchKeys (db: Queryable, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::text[])', [keyIds])
}

/** The principal of a live key with this hash, for this service. */
export async function findPrincipal (db: Queryable, hash: Buffer, service: Service): Promise<Principal | undefined> {
  const { rows } = await db.query<{ id: string, project_id: string, service: Service, username: string, origins: string[] }>(
    `SELECT id, project_id, service, username, origins FROM api_keys
     WHERE key_hash = $1 AND service = $2 AND revoked_at IS NULL`, [hash, service])
  const row = rows[0]
  if (row === undefined) return undefined
  const principal: Principal = { projectId: row.project_id, keyId: row.id, service: row.service, username: row.username }
  if (row.service === 'widget') principal.origins = row.origins
  return principal
}

/**
 * Whether a live widget key of any project names this origin: a browser's CORS preflight carries
 * no key, so it is answered for the origins some shop has allowed; the request itself is then
 * checked against its own key's origins.
 */
export async function widgetOriginKnown (db: Queryable, origin: string): Promise<boolean> {
  const { rows } = await db.query<{ known: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM api_keys WHERE service = \'widget\' AND revoked_at IS NULL AND origins @> ARRAY[$1::text]) AS known', [origin])
  return rows[0]!.known
}
