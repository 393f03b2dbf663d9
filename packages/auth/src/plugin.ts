import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { unauthorized } from '@chatsearch/shell'
import { TtlCache } from './cache.js'
import { hashKey, keyService, type Service } from './credential.js'
import { findPrincipal, type Principal } from './store.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: resolves the Bearer credential to its project or answers 401. */
    authenticate: (request: FastifyRequest) => Promise<void>
  }
  interface FastifyRequest {
    principal: Principal
  }
}

export interface AuthOptions {
  service: Service
  /** How long a looked-up key is trusted before it is checked again; bounds revocation delay. */
  cacheTtlMs?: number
}

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

  app.decorateRequest('principal', null as unknown as Principal)
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request)
    const service = keyService(token)
    if (service === undefined) throw unauthorized('the API key is malformed: expected csk_<service>_<secret>')
    if (service !== opts.service) throw unauthorized(`this is a ${service} credential; the ${opts.service} service needs a ${opts.service} credential`)
    const hash = hashKey(token)
    const principal = await cache.get(hash.toString('base64'), () => findPrincipal(app.pg, hash, opts.service))
    if (principal === undefined) throw unauthorized('the API key is invalid or has been revoked')
    request.principal = principal
  })
  app.addHook('onClose', async () => { cache.clear() })
}, { name: '@chatsearch/auth', fastify: '5.x', dependencies: ['@chatsearch/database'] })
