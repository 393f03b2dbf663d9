import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { limits } from '@chatsearch/contracts'
import type { Queryable } from '@chatsearch/shell'
import { randomBase62 } from './credential.js'

// Decision 18: what a publishable widget key needs besides the key itself. The origins it is bound
// to, the consumer token the service gives each browser, and the shop's identity verification.

/** Why a list of origins was refused, for the person who typed it. */
export class InvalidOriginsError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'InvalidOriginsError'
  }
}

/**
 * The origins of a widget key, checked: each exactly as a browser sends it in `Origin`
 * (`https://shop.example`, `http://localhost:8080`): scheme http or https, host, port only when not
 * the default, lower case, no path, no trailing slash. Duplicates are dropped; order is kept.
 */
export function checkOrigins (given: readonly string[]): string[] {
  const origins = [...new Set(given.map((o) => o.trim()).filter((o) => o !== ''))]
  if (origins.length === 0) throw new InvalidOriginsError('a widget key needs at least one allowed origin, e.g. https://shop.example')
  if (origins.length > limits.widgetOriginsMax) throw new InvalidOriginsError(`a widget key may name at most ${limits.widgetOriginsMax} origins`)
  for (const origin of origins) {
    let url: URL | undefined
    try { url = new URL(origin) } catch {}
    if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin) {
      const hint = url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') ? `; did you mean ${url.origin}?` : ''
      throw new InvalidOriginsError(`${JSON.stringify(origin.slice(0, 200))} is not an origin: expected scheme://host[:port] with no path, as a browser sends it in Origin (e.g. https://shop.example)${hint}`)
    }
  }
  return origins
}

/** A project's widget secrets (see migration 003). */
export interface WidgetSecrets {
  /** Signs the consumer tokens; never leaves the service. */
  tokenSecret: Buffer
  /** The shop's, shown in the console: it signs its logged-in customer's id with it. */
  identitySecret: string
}

/**
 * The project's widget secrets, made on first use. Kept in PostgreSQL rather than configuration so
 * that every chat replica signs and checks the same tokens with nothing to set, and one project's
 * secret signs nothing of another's; concurrent first uses agree on the row that won.
 */
export async function widgetSecrets (db: Queryable, projectId: string): Promise<WidgetSecrets> {
  const { rows } = await db.query<{ token_secret: Buffer, identity_secret: string }>(
    `WITH made AS (
       INSERT INTO widget_secrets (project_id, token_secret, identity_secret) VALUES ($1, $2, $3)
       ON CONFLICT (project_id) DO NOTHING RETURNING token_secret, identity_secret
     )
     SELECT token_secret, identity_secret FROM made
     UNION ALL SELECT token_secret, identity_secret FROM widget_secrets WHERE project_id = $1
     LIMIT 1`, [projectId, randomBytes(32), randomBase62(40)])
  // A concurrent first use that committed while this statement waited on its row is not in this
  // statement's snapshot (READ COMMITTED): a new statement sees it.
  const row = rows[0] ?? (await db.query<{ token_secret: Buffer, identity_secret: string }>(
    'SELECT token_secret, identity_secret FROM widget_secrets WHERE project_id = $1', [projectId])).rows[0]
  if (row === undefined) throw new Error(`project ${projectId} has no widget secrets and none could be made`)
  return { tokenSecret: row.token_secret, identitySecret: row.identity_secret }
}

/** Replaces the project's identity secret: the shop's server must sign with the new one from then on. */
export async function rotateIdentitySecret (db: Queryable, projectId: string): Promise<string> {
  await widgetSecrets(db, projectId)
  const secret = randomBase62(40)
  await db.query('UPDATE widget_secrets SET identity_secret = $2 WHERE project_id = $1', [projectId, secret])
  return secret
}

const TOKEN_VERSION = 'v1'
const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url')
const tokenMac = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(`${TOKEN_VERSION}.${payload}`).digest()

/**
 * A consumer token: `v1.<consumer id, base64url>.<HMAC-SHA256 of "v1.<that>" under the project's
 * token secret, base64url>`. It names the consumer and nothing else; the project is the key's, and
 * another project's secret does not verify it. It does not expire: the widget keeps its customer's
 * conversations across visits.
 */
export function signConsumerToken (secret: Buffer, consumerId: string): string {
  const payload = b64url(consumerId)
  return `${TOKEN_VERSION}.${payload}.${b64url(tokenMac(secret, payload))}`
}

/** The consumer a token names, or undefined when it was not signed with this secret (tampered, another project's). */
export function verifyConsumerToken (secret: Buffer, token: string): string | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || parts[0] !== TOKEN_VERSION) return undefined
  const [, payload, mac] = parts as [string, string, string]
  const given = Buffer.from(mac, 'base64url')
  const expected = tokenMac(secret, payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  const consumerId = Buffer.from(payload, 'base64url').toString('utf8')
  // base64url decoding is lenient; only the canonical text of a consumer id is accepted.
  return b64url(consumerId) === payload && consumerId !== '' ? consumerId : undefined
}

/** A consumer the service makes for a browser that has no token yet: unguessable, never a shop's id. */
export const newConsumerId = () => `wc_${randomBase62(24)}`

/** The hex HMAC-SHA256 of a customer id under the identity secret, as the shop's server computes it. */
export const identityHmac = (identitySecret: string, customerId: string) =>
  createHmac('sha256', identitySecret).update(customerId, 'utf8').digest('hex')

/** Whether `hmac` (hex, any case) is the identity HMAC of `customerId`; compared in constant time. */
export function verifyIdentity (identitySecret: string, customerId: string, hmac: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(hmac)) return false
  return timingSafeEqual(Buffer.from(hmac.toLowerCase(), 'hex'), Buffer.from(identityHmac(identitySecret, customerId), 'hex'))
}
