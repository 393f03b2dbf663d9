import { timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { ApiError, MemoryRateLimitStore, RedisRateLimitStore, ThrottledWarning, type RateLimitStore } from '@chatsearch/shell'
import { TtlCache } from './cache.js'
import { hashKey, keyService, type ApiService } from './credential.js'
import { findPrincipal, getProject, type Principal } from './store.js'
import { signConsumerToken, widgetSecrets, type WidgetSecrets } from './widget.js'
import { checkOrigin, widgetConsumer } from './widget-request.js'
import { listenThroughPostgres, listenThroughRedis } from './revocation.js'
import { LastUsed } from './last-used.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes a publishable widget key (decision 18), from its origins only, for the
     * consumer its token names; on any other route such a key is refused as an unknown one.
     */
    widgetKey?: boolean
  }
  interface FastifyInstance {
    /** onRequest hook: resolves the Bearer credential to its project or answers 401. */
    authenticate: (request: FastifyRequest) => Promise<void>
  }
  interface FastifyRequest {
    principal: Principal
  }
  interface FastifyInstance {
    /** Revocation messages received, and times the feed was lost and the cache emptied. */
    revocationFeed: { revocations: number, gaps: number }
  }
}

export interface AuthOptions {
  service: ApiService
  /**
   * How long a looked-up key is trusted before it is checked again. Revocations empty the cache at
   * once (see `redis`); this bounds the delay only when a revocation message is lost.
   */
  cacheTtlMs?: number
  /**
   * Revocations always arrive by PostgreSQL LISTEN (revokeKey sends NOTIFY), and also by Redis
   * pub/sub when this is given: either way every replica's cache is emptied within milliseconds.
   * Failed authentications are counted in it too, so the throttle holds across replicas.
   */
  redis?: Redis | undefined
  /**
   * The shared secret another of our services (chat, asking search) presents instead of a
   * project's key; it names the project in the `X-Project-Id` header. Unset: not accepted.
   */
  serviceToken?: string
  /**
   * Failed authentications allowed per client address and minute; past it the address gets 429
   * until the minute ends, whatever it sends. 0 switches the throttle off.
   */
  failuresPerMinute?: number
  /** How often the keys' last use is written (LAST_USED_FLUSH_MS by default). */
  lastUsedFlushMs?: number
}

/** AUTH_FAILURES_PER_MINUTE's default: a person mistyping a key never meets it; a key scanner does at once. */
export const AUTH_FAILURES_PER_MINUTE = 30
const FAILURE_WINDOW_MS = 60_000

/** The header in which a service credential names the project it acts for. */
export const PROJECT_HEADER = 'x-project-id'
/** The minimum length of a service token: it opens every project. */
export const SERVICE_TOKEN_MIN_LENGTH = 32

const BEARER = /^Bearer ([^\s]+)$/
/** What an unknown, revoked or misplaced key is told: the same whatever the reason. */
const UNKNOWN_KEY = 'the API key is invalid or has been revoked'

function bearerToken (request: FastifyRequest): string {
  const header = request.headers.authorization
  if (header === undefined || header === '') {
    throw new ApiError('unauthorized', 'missing Authorization header: send "Authorization: Bearer <API_KEY>"')
  }
  const match = BEARER.exec(header.trim())
  if (match === null) throw new ApiError('unauthorized', 'the Authorization header must be "Bearer <API_KEY>"')
  return match[1]!
}

/**
 * Project-scoped credentials: turns `Authorization: Bearer csk_…` into `request.principal`.
 * A key of the other service, a revoked or unknown key all get the same 401 body.
 */
export const authPlugin = fp<AuthOptions>(async (app, opts) => {
  const cache = new TtlCache<Principal | undefined>(opts.cacheTtlMs ?? 5000)
  const projects = new TtlCache<boolean>(opts.cacheTtlMs ?? 5000)
  // metrics are registered by buildService; a bare app (a unit test) has none
  if (app.hasDecorator('metrics')) {
    app.metrics.store('auth_credentials', () => ({ entries: cache.size }))
    app.metrics.store('auth_projects', () => ({ entries: projects.size }))
  }
  if (opts.serviceToken !== undefined && opts.serviceToken.length < SERVICE_TOKEN_MIN_LENGTH) {
    throw new Error(`a service token must have at least ${SERVICE_TOKEN_MIN_LENGTH} characters`)
  }
  const serviceTokenHash = opts.serviceToken === undefined ? undefined : hashKey(opts.serviceToken)

  /** A service credential acts for the project it names, if that project exists. */
  async function servicePrincipal (request: FastifyRequest): Promise<Principal> {
    const projectId = request.headers[PROJECT_HEADER]
    if (typeof projectId !== 'string' || projectId === '') throw new ApiError('unauthorized', `a service credential must name its project in the ${PROJECT_HEADER} header`)
    const exists = await projects.get(projectId, async () => await getProject(app.pg, projectId) !== undefined)
    if (!exists) throw new ApiError('unauthorized', `unknown project ${JSON.stringify(projectId.slice(0, 64))}`)
    return { projectId, keyId: 'service', service: opts.service, username: 'service' }
  }

  const secrets = new TtlCache<WidgetSecrets>(opts.cacheTtlMs ?? 5000)

  /** A widget key, on a route that takes one: its origin checked, its consumer resolved. */
  async function widgetPrincipal (request: FastifyRequest, hash: Buffer): Promise<Principal> {
    const principal = await cache.get(hash.toString('base64'), () => findPrincipal(app.pg, hash, 'widget'))
    if (principal === undefined) throw new ApiError('unauthorized', UNKNOWN_KEY)
    checkOrigin(request, principal.origins ?? [])
    const projectSecrets = await secrets.get(principal.projectId, () => widgetSecrets(app.pg, principal.projectId))
    const consumerId = widgetConsumer(request, projectSecrets)
    // Last used means it authenticated a request: one refused for its origin or consumer did not.
    lastUsed.used(principal.keyId)
    return { ...principal, consumerId, consumerToken: signConsumerToken(projectSecrets.tokenSecret, consumerId) }
  }

  const lastUsed = new LastUsed(app.pg, app.log, opts.lastUsedFlushMs)
  const failures = opts.redis === undefined ? new MemoryRateLimitStore() : new RedisRateLimitStore(opts.redis)
  const throttle = new FailureThrottle(failures,
    opts.failuresPerMinute ?? AUTH_FAILURES_PER_MINUTE, `authfail:${opts.service}:`, new ThrottledWarning(app.log))
  if (failures instanceof MemoryRateLimitStore && app.hasDecorator('metrics')) app.metrics.store('auth_failure_windows', () => failures.size)

  async function identify (request: FastifyRequest) {
    const token = bearerToken(request)
    // Hashes of equal length, compared in constant time: the comparison reveals nothing of the secret.
    if (serviceTokenHash !== undefined && timingSafeEqual(hashKey(token), serviceTokenHash)) {
      request.principal = await servicePrincipal(request)
      return
    }
    const service = keyService(token)
    if (service === undefined) throw new ApiError('unauthorized', 'the API key is malformed: expected csk_<service>_<secret>')
    if (service === 'widget') {
      // Anywhere but the routes that take it, a publishable key is refused as an unknown key is.
      if (opts.service !== 'chat' || request.routeOptions.config.widgetKey !== true) throw new ApiError('unauthorized', UNKNOWN_KEY)
      request.principal = await widgetPrincipal(request, hashKey(token))
      return
    }
    if (service !== opts.service) throw new ApiError('unauthorized', `this is a ${service} credential; the ${opts.service} service needs a ${opts.service} credential`)
    const hash = hashKey(token)
    const principal = await cache.get(hash.toString('base64'), () => findPrincipal(app.pg, hash, opts.service))
    if (principal === undefined) throw new ApiError('unauthorized', UNKNOWN_KEY)
    request.principal = principal
    lastUsed.used(principal.keyId)
  }

  app.decorateRequest('principal', null as unknown as Principal)
  app.decorate('authenticate', async (request: FastifyRequest) => {
    await throttle.refuseIfBlocked(request.ip)
    try {
      await identify(request)
    } catch (err) {
      if (err instanceof ApiError && err.code === 'unauthorized') await throttle.failed(request.ip)
      throw err
    }
  })
  const feed = { revocations: 0, gaps: 0 }
  app.decorate('revocationFeed', feed)
  // Revocations are rare: the whole cache goes, and each key is looked up again on its next use.
  const handlers = {
    revoked: (keyId: string) => { feed.revocations++; cache.clear(); app.log.info({ keyId }, 'credential revoked: cache emptied') },
    gap: () => { feed.gaps++; cache.clear() }
  }
  // PostgreSQL NOTIFY always (revokeKey sends it, so a CLI without REDIS_URL still reaches every
  // replica), and Redis pub/sub too when configured; a revocation heard twice empties the cache twice.
  const feeds = [await listenThroughPostgres(app.pg, handlers, app.log)]
  if (opts.redis !== undefined) feeds.push(await listenThroughRedis(opts.redis, handlers, app.log))
  app.addHook('onClose', async () => {
    for (const stop of feeds) await stop()
    await lastUsed.close()
    cache.clear()
    projects.clear()
    secrets.clear()
  })
}, { name: '@chatsearch/auth', fastify: '5.x', dependencies: ['@chatsearch/database'] })

/**
 * Counts failed authentications per client address in fixed one-minute windows, in Redis when the
 * replicas share one, so that guessing keys costs a scanner a minute per few dozen tries. Behind a
 * gateway the address is the one TRUST_PROXY lets X-Forwarded-For name. A store that fails lets
 * requests through (as the rate limits do): authentication itself still holds.
 */
class FailureThrottle {
  readonly #store: RateLimitStore
  readonly #limit: number
  readonly #prefix: string
  readonly #warning: ThrottledWarning

  constructor (store: RateLimitStore, limit: number, prefix: string, warning: ThrottledWarning) {
    this.#store = store
    this.#limit = limit
    this.#prefix = prefix
    this.#warning = warning
  }

  async refuseIfBlocked (address: string) {
    if (this.#limit <= 0) return
    let window
    try {
      window = await this.#store.peek(this.#prefix + address)
    } catch (err) {
      this.#warning.warn(err, 'failed authentications are not throttled: the shared store is unavailable')
      return
    }
    if (window.count < this.#limit) return
    const retryS = Math.max(1, Math.ceil(window.resetMs / 1000))
    throw new ApiError('authentication_throttled',
      `too many failed authentications from this address; retry in ${retryS} s with a valid credential`, { 'retry-after': String(retryS) })
  }

  async failed (address: string) {
    if (this.#limit <= 0) return
    await this.#store.hit(this.#prefix + address, FAILURE_WINDOW_MS).catch((err: unknown) => {
      this.#warning.warn(err, 'failed authentications are not throttled: the shared store is unavailable')
    })
  }
}

/**
 * Who a request is, for per-credential counters and keys: the project and key id (a service
 * credential counts per project it acts for), and the consumer when the caller is bound to one (a
 * widget key's browsers never share an Idempotency-Key's stored reply); undefined before authentication.
 */
export function credentialOf (request: FastifyRequest): string | undefined {
  const principal = request.principal as Principal | null
  if (principal === null) return undefined
  const who = `${principal.projectId}:${principal.keyId}`
  return principal.consumerId === undefined ? who : `${who}:${principal.consumerId}`
}

/**
 * onRequest hook of the admin routes (decision 15), registered after `authenticate` in their own
 * scope: only the service token, with the project in X-Project-Id, passes. It runs before the body
 * and query are validated, so a project's key learns nothing from these routes but 401.
 */
export async function serviceTokenOnly (request: FastifyRequest): Promise<void> {
  if (request.principal.keyId !== 'service') throw new ApiError('unauthorized', 'admin routes take only the service token (SERVICE_TOKEN) with the project in X-Project-Id')
}
