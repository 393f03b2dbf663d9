import { randomBytes, randomUUID } from 'node:crypto'
import pg from 'pg'
import type { WebhookDelivery, WebhookDeliveryEvent, WebhookEndpoint, WebhookEventType } from '@chatsearch/contracts'
import { jsonForDatabase, type Queryable } from '@chatsearch/shell'

// The SQL of endpoints and deliveries. Every endpoint query is scoped by project (decision 9); a
// delivery is reached through its endpoint.

const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ
const asDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date
/** For a query's `types`: timestamptz columns come back as ISO 8601 UTC text, as the API sends them. */
const iso: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => oid === TIMESTAMPTZ
    ? (text: string) => asDate(text).toISOString()
    : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser']
}

const ENDPOINT_COLUMNS = 'id, url, events, enabled, created_at'
const DELIVERY_COLUMNS = 'id, event_id, event, status, attempts, last_status_code, last_error, next_attempt_at, created_at, delivered_at'

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`

export async function listEndpoints (db: Queryable, projectId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<WebhookEndpoint>({
    text: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE project_id = $1 ORDER BY created_at, id`,
    values: [projectId],
    types: iso
  })
  return rows
}

/** A new endpoint with its secret; undefined when the project already has `max` endpoints. */
export async function createEndpoint (db: Queryable, projectId: string, url: string, events: WebhookEventType[], enabled: boolean, max: number): Promise<(WebhookEndpoint & { secret: string }) | undefined> {
  const { rows } = await db.query<WebhookEndpoint & { secret: string }>({
    text: `INSERT INTO webhook_endpoints (id, project_id, url, events, secret, enabled)
           SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $2) < $7
           RETURNING ${ENDPOINT_COLUMNS}, secret`,
    values: [randomUUID(), projectId, url, events, newSecret(), enabled, max],
    types: iso
  })
  return rows[0]
}

export interface EndpointChange { url?: string, events?: WebhookEventType[], enabled?: boolean }

/** Changes what is given; undefined when the project has no such endpoint. */
export async function updateEndpoint (db: Queryable, projectId: string, id: string, change: EndpointChange): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<WebhookEndpoint>({
    text: `UPDATE webhook_endpoints SET url = COALESCE($3, url), events = COALESCE($4, events), enabled = COALESCE($5, enabled)
           WHERE project_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    values: [projectId, id, change.url ?? null, change.events ?? null, change.enabled ?? null],
    types: iso
  })
  return rows[0]
}

/** A new secret for the endpoint; the old one signs nothing from now on. */
export async function rotateSecret (db: Queryable, projectId: string, id: string): Promise<(WebhookEndpoint & { secret: string }) | undefined> {
  const { rows } = await db.query<WebhookEndpoint & { secret: string }>({
    text: `UPDATE webhook_endpoints SET secret = $3 WHERE project_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}, secret`,
    values: [projectId, id, newSecret()],
    types: iso
  })
  return rows[0]
}

/** Deletes the endpoint and its delivery log. */
export async function deleteEndpoint (db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2', [projectId, id])
  return rowCount === 1
}

export async function endpointExists (db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM webhook_endpoints WHERE project_id = $1 AND id = $2', [projectId, id])
  return rows.length === 1
}

/**
 * One pending delivery of the event to each enabled endpoint of the project subscribed to it (or,
 * for `ping`, to the one endpoint named), due at once. Answers the deliveries made.
 */
export async function insertDeliveries (db: Queryable, projectId: string, event: WebhookDeliveryEvent, data: unknown, only?: string): Promise<WebhookDelivery[]> {
  const { rows } = await db.query<WebhookDelivery>({
    text: `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event, payload, next_attempt_at)
           SELECT gen_random_uuid(), e.id, $3, $4, $5, now() FROM webhook_endpoints e
           WHERE e.project_id = $1 AND ($2::uuid IS NULL OR e.id = $2) AND ($2::uuid IS NOT NULL OR (e.enabled AND $4 = ANY (e.events)))
           RETURNING ${DELIVERY_COLUMNS}`,
    values: [projectId, only ?? null, randomUUID(), event, jsonForDatabase(data)],
    types: iso
  })
  return rows
}

export async function listDeliveries (db: Queryable, projectId: string, endpointId: string, limit: number, offset: number): Promise<{ results: WebhookDelivery[], total: number }> {
  const [page, count] = await Promise.all([
    db.query<WebhookDelivery>({
      text: `SELECT ${DELIVERY_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')} FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
             WHERE e.project_id = $1 AND d.endpoint_id = $2 ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
      values: [projectId, endpointId, limit, offset],
      types: iso
    }),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE e.project_id = $1 AND d.endpoint_id = $2`, [projectId, endpointId])
  ])
  return { results: page.rows, total: count.rows[0]!.total }
}

/** A delivery that failed (or any that is not pending) is due again at once, with a fresh count of attempts. */
export async function retryDelivery (db: Queryable, projectId: string, endpointId: string, id: string): Promise<WebhookDelivery | undefined> {
  const { rows } = await db.query<WebhookDelivery>({
    text: `UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
           FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.project_id = $1 AND d.endpoint_id = $2 AND d.id = $3
           RETURNING ${DELIVERY_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}`,
    values: [projectId, endpointId, id],
    types: iso
  })
  return rows[0]
}

/** A delivery claimed by a worker, with what sending it needs. */
export interface ClaimedDelivery {
  id: string
  event_id: string
  event: WebhookDeliveryEvent
  payload: unknown
  attempts: number
  created_at: string
  project_id: string
  url: string
  secret: string
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints (a `ping` whatever the endpoint's state):
 * each attempt is counted and the delivery pushed `leaseMs` into the future as it is claimed, so
 * that a worker that dies while sending leaves it to be tried again once the lease is over (the
 * restart-safety), while SKIP LOCKED keeps two workers from claiming the same one.
 */
export async function claimDue (db: Queryable, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimedDelivery>({
    text: `WITH due AS (
             SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
             WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (e.enabled OR d.event = 'ping')
             ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED
           )
           UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + $2 * interval '1 millisecond'
           FROM due, webhook_endpoints e WHERE d.id = due.id AND e.id = d.endpoint_id
           RETURNING d.id, d.event_id, d.event, d.payload, d.attempts, d.created_at, e.project_id, e.url, e.secret`,
    values: [limit, leaseMs],
    types: iso
  })
  return rows
}

/** What came of one attempt. */
export interface AttemptOutcome { ok: boolean, statusCode: number | null, error: string | null }

/**
 * Records an attempt: delivered; or failed, then due again after `retryInMs`, or failed for good
 * when that is null.
 */
export async function recordAttempt (db: Queryable, id: string, outcome: AttemptOutcome, retryInMs: number | null): Promise<void> {
  if (outcome.ok) {
    await db.query(`UPDATE webhook_deliveries SET status = 'succeeded', last_status_code = $2, last_error = NULL, next_attempt_at = NULL, delivered_at = now()
      WHERE id = $1 AND status = 'pending'`, [id, outcome.statusCode])
    return
  }
  await db.query(`UPDATE webhook_deliveries SET last_status_code = $2, last_error = $3,
      status = CASE WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
      next_attempt_at = CASE WHEN $4::float8 IS NULL THEN NULL ELSE now() + $4 * interval '1 millisecond' END
    WHERE id = $1 AND status = 'pending'`, [id, outcome.statusCode, outcome.error, retryInMs])
}

/** Deletes finished deliveries older than `days` (of every project); answers how many. */
export async function pruneDeliveries (db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - $1 * interval '1 day'", [days])
  return rowCount ?? 0
}
