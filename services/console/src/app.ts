import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { authMigrations } from '@chatsearch/auth'
import { buildOnServiceBase, MemoryRateLimitStore, RedisRateLimitStore, type ServiceBaseOptions } from '@chatsearch/shell'
import type { ConsoleConfig } from './config.js'
import { documentCsrf, sessionPlugin, sessionSecurity } from './session.js'
import { requireMember } from './membership.js'
import { Upstream } from './upstream.js'
import { sessionRoutes } from './routes/session.js'
import { projectListRoutes, projectRoutes } from './routes/projects.js'
import { credentialRoutes } from './routes/credentials.js'
import { searchForwards } from './routes/search-forwards.js'
import { chatForwards } from './routes/chat-forwards.js'
import { webhookForwards } from './routes/webhook-forwards.js'
import { consoleCsp, defaultWebRoot, webRoutes } from './web.js'

export const consoleMigrations = fileURLToPath(new URL('../migrations', import.meta.url))

/** The shared parts as the console has them: its users sign in to sessions, so no project credentials. */
function baseOf (config: ConsoleConfig): ServiceBaseOptions {
  return {
    service: 'console',
    config,
    // The console's tables refer to the auth package's projects.
    migrations: { auth: authMigrations, console: consoleMigrations },
    openApi: {
      title: 'Console API',
      description: 'The JSON API of the project dashboard (its web app\'s): sign in with a console user, manage projects, members and credentials, and reach each project\'s catalog, knowledge, conversations, analytics and playground, which are forwarded to the search and chat services. Signed in by the `console_session` cookie; every POST, PUT, PATCH and DELETE also sends the session\'s CSRF token in `X-CSRF-Token`.',
      servers: [
        { url: '/', description: 'The console itself, on its own host and port (CONSOLE_PORT, 3000 by default)' },
        { url: '/', description: 'Through the gateway of docker-compose.yml, which serves the console (its web app and /api) at its root' }
      ],
      tags: [
        { name: 'session', description: 'Sign in with a console username and password, read the session and its CSRF token, sign out' },
        { name: 'projects', description: 'The projects of the signed-in user, and their members (owners manage them)' },
        { name: 'credentials', description: 'The project\'s credentials: chat API keys and search API tokens, issued and revoked by its members' },
        { name: 'catalog', description: 'The project catalog and its index settings: forwarded to the search service' },
        { name: 'rules', description: 'The project\'s search rules (pin and hide items for a query, optionally between two dates): forwarded to the search service' },
        { name: 'knowledge', description: 'The project\'s knowledge: pages, FAQs, crawls and uploaded files, forwarded to the search service' },
        { name: 'tasks', description: 'Catalog imports, crawls and file uploads that run in the background: forwarded to the search service' },
        { name: 'search', description: 'Search and autocomplete of the project catalog, as its shoppers get them: forwarded to the search service' },
        { name: 'conversations', description: 'The project\'s chats: list, read, export, delete, and answer those handed off to the team; forwarded to the chat service' },
        { name: 'analytics', description: 'Chat and search figures per day, from both services' },
        { name: 'playground', description: 'Talk to the project\'s assistant as a test chat, left out of analytics' },
        { name: 'webhooks', description: 'The project\'s webhook endpoints, their signing secrets and delivery logs (the chat service\'s /admin/webhooks)' }
      ],
      security: sessionSecurity
    }
  }
}

async function register (app: FastifyInstance, config: ConsoleConfig) {
  await app.register(sessionPlugin, { ttlMs: config.sessionTtlMs })

  const chat = new Upstream('chat', config.chatUrl, config.serviceToken, config.upstreamTimeoutMs, app.log)
  const search = new Upstream('search', config.searchUrl, config.serviceToken, config.upstreamTimeoutMs, app.log)
  const throttleStore = app.redis === undefined ? new MemoryRateLimitStore() : new RedisRateLimitStore(app.redis)
  if (throttleStore instanceof MemoryRateLimitStore) app.metrics.store('sign_in_failure_windows', () => throttleStore.size)

  await app.register(sessionRoutes, { ttlMs: config.sessionTtlMs, failures: config.signInFailures, store: throttleStore })
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', signedIn.requireSession)
    signedIn.addHook('onRoute', documentCsrf)
    await signedIn.register(projectListRoutes)
    await signedIn.register(async (project) => {
      project.addHook('onRequest', requireMember(project))
      await project.register(projectRoutes)
      await project.register(credentialRoutes, { redis: app.redis, chatPublicUrl: (config.chatPublicUrl ?? config.chatUrl).replace(/\/+$/, '') })
      await project.register(searchForwards, { search })
      await project.register(chatForwards, { chat, search })
      await project.register(webhookForwards, { chat })
    })
  })
  await app.register(webRoutes, { root: config.webRoot ?? defaultWebRoot })
}

/** The console as a Fastify app: migrations applied, routes registered, ready to listen or inject. */
export async function buildApp (config: ConsoleConfig): Promise<FastifyInstance> {
  return await buildOnServiceBase({ ...baseOf(config), contentSecurityPolicy: consoleCsp }, (app) => register(app, config))
}
