import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { apiVersion } from '@chatsearch/contracts'
import type { ServiceConfig } from './config.js'
import { databasePlugin, pingDatabase } from './database.js'
import { healthRoutes, type ReadinessCheck } from './health.js'
import { idempotencyPlugin } from './idempotency.js'
import { migrate } from './migrate.js'
import { openApiPlugin, type OpenApiOptions } from './openapi.js'
import { rateLimitPlugin, type RateLimitClass, type RateLimitOptions } from './rate-limit.js'
import { redisCheck, redisPlugin } from './redis/plugin.js'
import { buildService, type ServerOptions } from './server.js'

/**
 * How a service's callers prove who they are. The auth package implements it (`projectCredentials`):
 * it builds on this package, so a service hands it in rather than this package importing it.
 */
export interface CredentialCheck {
  /** Registers the check that gives each request its credential, with the config's auth settings and the app's Redis. */
  register: (app: FastifyInstance, config: ServiceConfig) => Promise<void>
  /** The credential of an authenticated request: rate limits and idempotency keys are kept per credential. */
  identify: (request: FastifyRequest) => string | undefined
}

export interface ServiceBaseOptions {
  /** The service's name: in its logs, metrics, Redis keys and health answers. */
  service: string
  config: ServiceConfig
  /** Numbered SQL folders by scope, applied in this order (the auth package's first: the services' tables refer to its projects). */
  migrations: Record<string, string>
  /**
   * Project credentials, with each rate-limit class's requests per credential and minute and the
   * Idempotency-Key store. Absent (the console, whose users sign in to sessions): none of the three.
   */
  credentials?: {
    check: CredentialCheck
    rateLimits: Partial<Record<RateLimitClass, number>>
    /** A request's rate counters when they are not its class's per credential (see RateLimitOptions). */
    counters?: RateLimitOptions['counters']
  }
  /** The service's OpenAPI document; its version is the API's. */
  openApi: Omit<OpenApiOptions, 'version'>
  /** What /readyz asks of the app besides the database and Redis, listed between the two. */
  checks?: (app: FastifyInstance) => Record<string, ReadinessCheck>
}

/**
 * What every service registers before its own stores and routes, in this order: the database and its
 * migrations, Redis, credentials with their rate limits and idempotency keys, the OpenAPI document
 * (before any route it documents) and the health routes.
 */
export const serviceBase = fp<ServiceBaseOptions>(async (app, opts) => {
  const { service, config } = opts
  await app.register(databasePlugin, { databaseUrl: config.databaseUrl, poolSize: config.dbPoolSize })
  for (const [scope, dir] of Object.entries(opts.migrations)) await migrate(app.pg, scope, dir)
  await app.register(redisPlugin, { url: config.redisUrl, name: service })
  if (opts.credentials !== undefined) {
    const { check, rateLimits, counters } = opts.credentials
    await check.register(app, config)
    await app.register(rateLimitPlugin, { service, limits: rateLimits, identify: check.identify, ...(counters === undefined ? {} : { counters }) })
    await app.register(idempotencyPlugin, { service, identify: check.identify })
  }
  await app.register(openApiPlugin, { ...opts.openApi, version: apiVersion })
  await app.register(healthRoutes, { service, checks: { database: () => pingDatabase(app.pg), ...opts.checks?.(app), ...redisCheck(app.redis) } })
}, { name: '@chatsearch/service-base', fastify: '5.x' })

/**
 * Builds a service as buildService does, on the service base: `register` adds the service's own
 * stores and routes after the shared parts.
 */
export async function buildOnServiceBase (
  opts: ServiceBaseOptions & Pick<ServerOptions, 'contentSecurityPolicy'>,
  register: (app: FastifyInstance) => Promise<void>
): Promise<FastifyInstance> {
  const { service, config, contentSecurityPolicy, ...base } = opts
  const server: ServerOptions = {
    name: service,
    logLevel: config.logLevel,
    logStream: config.logStream,
    metricsToken: config.metricsToken,
    trustProxy: config.trustProxy,
    contentSecurityPolicy
  }
  return await buildService(server, async (app) => {
    await app.register(serviceBase, { service, config, ...base })
    await register(app)
  })
}
