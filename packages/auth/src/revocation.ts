import pg from 'pg'
import type { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'

/** Redis pub/sub channel on which a revoked key's id is published. */
export const REVOCATION_CHANNEL = 'chatsearch:credential-revoked'
/** PostgreSQL NOTIFY channel on which `revokeKey` announces a revoked key's id. */
export const REVOCATION_NOTIFY = 'chatsearch_credential_revoked'

/** What a listener is told: a key was revoked, or messages may have been missed (reconnected). */
export interface RevocationHandlers {
  revoked: (keyId: string) => void
  /** The feed was down for a while: anything may have been revoked meanwhile. */
  gap: () => void
}

/** Stops listening. */
export type StopListening = () => Promise<void>

/** Tells every replica subscribed through this Redis that a key was revoked. */
export async function publishRevocation (redis: Redis, keyId: string): Promise<number> {
  return await redis.publish(REVOCATION_CHANNEL, keyId)
}

/** Revocations published through Redis, on a connection of its own (a subscriber can do nothing else). */
export async function listenThroughRedis (redis: Redis, handlers: RevocationHandlers, log: FastifyBaseLogger): Promise<StopListening> {
  const subscriber = redis.duplicate({ connectionName: `${redis.options.connectionName ?? 'chatsearch'}-revocations` })
  let lost = false
  subscriber.on('error', () => { lost = true })
  subscriber.on('close', () => { lost = true })
  // ioredis subscribes again by itself after a reconnect; what was published meanwhile is lost.
  subscriber.on('ready', () => {
    if (!lost) return
    lost = false
    log.info('revocation feed back: credential cache emptied')
    handlers.gap()
  })
  subscriber.on('message', (_channel: string, keyId: string) => { handlers.revoked(keyId) })
  await subscriber.connect()
  await subscriber.subscribe(REVOCATION_CHANNEL)
  return async () => { subscriber.disconnect() }
}

/**
 * How long a lost PostgreSQL feed waits before it says so and reconnects. Ctrl-C in a terminal
 * signals the whole process group: the embedded PostgreSQL of `pnpm start` stops at once and drops
 * the feed a moment before this process handles the same signal and stops listening. A loss that the
 * process's own stop follows within this time is part of stopping, not an outage to warn about.
 */
export const FEED_LOSS_GRACE_MS = 500

/**
 * Revocations announced by PostgreSQL NOTIFY (see `revokeKey`): the single-node default, which
 * needs no Redis and sees the admin CLI's revocations although it runs in another process. The
 * connection is its own and is opened again if lost (after FEED_LOSS_GRACE_MS).
 */
export async function listenThroughPostgres (pool: pg.Pool, handlers: RevocationHandlers, log: FastifyBaseLogger, lossGraceMs = FEED_LOSS_GRACE_MS): Promise<StopListening> {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined

  const open = async () => {
    const next = new pg.Client({ ...pool.options, connectionTimeoutMillis: 5000 })
    next.on('error', () => { reopen(next) })
    next.on('end', () => { reopen(next) })
    next.on('notification', (message) => { if (message.payload !== undefined) handlers.revoked(message.payload) })
    try {
      await next.connect()
      await next.query(`LISTEN ${REVOCATION_NOTIFY}`)
    } catch (err) {
      next.end().catch(() => {})
      throw err
    }
    if (stopped) await next.end()
    else client = next
  }
  const retryUntilOpen = () => {
    retry = undefined
    if (stopped) return
    open().then(() => {
      log.info('revocation feed back: credential cache emptied')
      handlers.gap()
    }, () => { retry = setTimeout(retryUntilOpen, 1000) })
  }
  const reopen = (dead: pg.Client) => {
    if (stopped || client !== dead) return
    client = undefined
    dead.end().catch(() => {})
    retry = setTimeout(() => {
      retry = undefined
      if (stopped) return
      log.warn('revocation feed lost; reconnecting (revocations meanwhile take effect within AUTH_CACHE_TTL_MS)')
      retryUntilOpen()
    }, lossGraceMs)
  }

  // A database that is down at start-up fails requests with 503 until it is back; the feed keeps
  // trying meanwhile rather than failing the start.
  await open().catch((err: unknown) => {
    log.warn({ err }, 'revocation feed unavailable; retrying')
    retry = setTimeout(retryUntilOpen, 1000)
  })
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end().catch(() => {})
  }
}
