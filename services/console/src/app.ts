import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { authMigrations } from '@chatsearch/auth'
import { buildService, databasePlugin, healthRoutes, migrate, MemoryRateLimitStore, pingDatabase, redisCheck, redisPlugin, RedisRateLimitStore } from '@chatsearch/shell'
import type { ConsoleConfig } from './config.js'
import { sessionPlugin } from './session.js'
import { requireMember } from './membership.js'
import { Upstream } from './upstream.js'
import { sessionRoutes } from './routes/session.js'
import { projectListRoutes, projectRoutes } from './routes/projects.js'
import { credentialRoutes } from './routes/credentials.js'
import { searchForwards } from './routes/search-forwards.js'
import { chatForwards } from './routes/chat-forwards.js'
import { consoleCsp, defaultWebRoot, webRoutes } from './web.js'

export const consoleMigrations = fileURLToPath(new URL('../migrations', import.meta.url))

async function register (app: FastifyInstance, config: ConsoleConfig) {
  await app.register(databasePlugin, { databaseUrl: config.databaseUrl, poolSize: config.dbPoolSize })
  // The console's tables refer to the auth package's projects.
  await migrate(app.pg, 'auth', authMigrations)
  await migrate(app.pg, 'console', consoleMigrations)
  await app.register(redisPlugin, { url: config.redisUrl, name: 'console' })
  await app.register(healthRoutes, { service: 'console', checks: { database: () => pingDatabase(app.pg), ...redisCheck(app.redis) } })
  await app.register(sessionPlugin, { ttlMs: config.sessionTtlMs })

  const chat = new Upstream('chat', config.chatUrl, config.serviceToken, config.upstreamTimeoutMs, app.log)
  const search = new Upstream('search', config.searchUrl, config.serviceToken, config.upstreamTimeoutMs, app.log)
  const throttleStore = app.redis === undefined ? new MemoryRateLimitStore() : new RedisRateLimitStore(app.redis)

  await app.register(sessionRoutes, { ttlMs: config.sessionTtlMs, failures: config.signInFailures, store: throttleStore })
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', signedIn.requireSession)
    await signedIn.register(projectListRoutes)
    await signedIn.register(async (project) => {
      project.addHook('onRequest', requireMember(project))
      await project.register(projectRoutes)
      await project.register(credentialRoutes, { redis: app.redis })
      await project.register(searchForwards, { search })
      await project.register(chatForwards, { chat, search })
    })
  })
  await app.register(webRoutes, { root: config.webRoot ?? defaultWebRoot })
}

/** The console as a Fastify app: migrations applied, routes registered, ready to listen or inject. */
export async function buildApp (config: ConsoleConfig): Promise<FastifyInstance> {
  const server = {
    name: 'console',
    logLevel: config.logLevel,
    ...(config.logStream === undefined ? {} : { logStream: config.logStream }),
    ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
    contentSecurityPolicy: consoleCsp
  }
  return await buildService(server, (app) => register(app, config))
}
