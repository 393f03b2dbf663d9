import { timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { unauthorized } from '@chatsearch/shell'
import { TtlCache } from './cache.js'
import { hashKey, keyService, type Service } from './credential.js'
import { findPrincipal, getProject, type Principal } from './store.js'
import { listenThroughPostgres, listenThroughRedis } from './revocation.js'

declare module 'fastify' {
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
  service: Service
  /**
   * How long a looked-up key is trusted before it is checked again. Revocations empty the cache at
   * once (see `redis`); this bounds the delay only when a revocation message is lost.
   */
  cacheTtlMs?: number
  /**
   * Revocations arrive by Redis pub/sub when given, by PostgreSQL LISTEN otherwise: either way
   * every replica's cache is emptied within milliseconds of `key revoke`.
   */
  redis?: Redis | undefined
  /**
   * The shared secret another of our services (chat, asking search) presents instead of a
   * project's key; it names the project in the `X-Project-Id` header. Unset: not accepted.
   */
  serviceToken?: string
}

/** The header in which a service credential names the project it acts for. */
export const PROJECT_HEADER = 'x-project-id'
/** The minimum length of a service token: it opens every project. */
export const SERVICE_TOKEN_MIN_LENGTH = 32

const BEARER = /^Bearer ([^\s]+)$/

function bearerToken (request: FastifyRequest): string {
  const header = request.headers.authorization
  if (header === undefined || header === '') {
    throw unauthorized('missing Authorization header: send "Authorization: Bearer <API_KEY>"')
  }
  const match = BEARER.exec(header.trim())
  if (match === null) throw unauthorized('the Authorization header must be "Bearer <API_KEY>"')
  return match[1]!
}

/**
 * Project-scoped credentials: turns `Authorization: Bearer csk_…` into `request.principal`.
 * A key of the other service, a revoked or unknown key all get the same 401 body.
 */
export const authPlugin = fp<AuthOptions>(async (app, opts) => {
  const cache = new TtlCache<Principal | undefined>(opts.cacheTtlMs ?? 5000)
  const projects = new TtlCache<boolean>(opts.cacheTtlMs ?? 5000)
  if (opts.serviceToken !== undefined && opts.serviceToken.length < SERVICE_TOKEN_MIN_LENGTH) {
    throw new Error(`a service token must have at least ${SERVICE_TOKEN_MIN_LENGTH} characters`)
  }
  const serviceTokenHash = opts.serviceToken === undefined ? undefined : hashKey(opts.serviceToken)

  /** A service credential acts for the project it names, if that project exists. */
  async function servicePrincipal (request: FastifyRequest): Promise<Principal> {
    const projectId = request.headers[PROJECT_HEADER]
    if (typeof projectId !== 'string' || projectId === '') throw unauthorized(`a service credential must name its project in the ${PROJECT_HEADER} header`)
    const exists = await projects.get(projectId, async () => await getProject(app.pg, projectId) !== undefined)
    if (!exists) throw unauthorized(`unknown project ${JSON.stringify(projectId.slice(0, 64))}`)
    return { projectId, keyId: 'service', service: opts.service, username: 'service' }
  }

  app.decorateRequest('principal', null as unknown as Principal)
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request)
    // Hashes of equal length, compared in constant time: the comparison reveals nothing of the secret.
    if (serviceTokenHash !== undefined && timingSafeEqual(hashKey(token), serviceTokenHash)) {
      request.principal = await servicePrincipal(request)
      return
    }
    const service = keyService(token)
    if (service === undefined) throw unauthorized('the API key is malformed: expected csk_<service>_<secret>')
    if (service !== opts.service) throw unauthorized(`this is a ${service} credential; the ${opts.service} service needs a ${opts.service} credential`)
    const hash = hashKey(token)
    const principal = await cache.get(hash.toString('base64'), () => findPrincipal(app.pg, hash, opts.service))
    if (principal === undefined) throw unauthorized('the API key is invalid or has been revoked')
    request.principal = principal
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
    cache.clear()
    projects.clear()
  })
}, { name: '@chatsearch/auth', fastify: '5.x', dependencies: ['@chatsearch/database'] })

/**
 * Who a request is, for per-credential counters and keys: the project and key id (a service
 * credential counts per project it acts for); undefined before authentication.
 */
export function credentialOf (request: FastifyRequest): string | undefined {
  const principal = request.principal as Principal | null
  return principal === null ? undefined : `${principal.projectId}:${principal.keyId}`
}
