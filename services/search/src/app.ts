import type { FastifyInstance } from 'fastify'
import { authMigrations, projectCredentials } from '@chatsearch/auth'
import { buildOnServiceBase, VersionedCache, type ServiceBaseOptions } from '@chatsearch/shell'
import { WEBHOOK_DEFAULTS, queueTaskEnded, webhookMigrations, webhooksPlugin } from '@chatsearch/webhooks'
import type { SearchConfig } from './config.js'
import { searchRoutes } from './routes/search.js'
import { suggestionRoutes } from './routes/suggestions.js'
import { eventRoutes } from './routes/events.js'
import { CATALOG_TASK_DEFAULT, documentRoutes } from './routes/documents.js'
import { knowledgeRoutes } from './routes/knowledge.js'
import { knowledgeFileRoutes } from './routes/knowledge-files.js'
import { enginePlugin } from './engine-plugin.js'
import { SEARCH_CACHE_PREFIX } from './response-cache.js'
import { searchMigrations } from './migrations.js'
import { tasksPlugin } from './tasks/plugin.js'
import { TASK_DEFAULTS } from './tasks/queue.js'
import { catalogImport } from './tasks/catalog-import.js'
import { crawlLimitsOf, knowledgeCrawl } from './tasks/knowledge-crawl.js'
import { knowledgeFiles } from './tasks/knowledge-files.js'
import { taskRoutes } from './routes/tasks.js'
import { adminRoutes } from './routes/admin.js'
import { ruleRoutes } from './routes/rules.js'
import { RulesStore } from './rules/store.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Search, facet search and autocomplete responses per project and catalog version, with hit/miss counters. */
    searchCache: VersionedCache
    /** The projects' search rules (PostgreSQL), kept a few seconds per process; POST /search applies them. */
    searchRules: RulesStore
  }
}

/** The shared parts as the search service has them, with its engine among the readiness checks. */
function baseOf (config: SearchConfig): ServiceBaseOptions {
  return {
    service: 'search',
    config,
    migrations: { auth: authMigrations, search: searchMigrations, webhooks: webhookMigrations },
    credentials: {
      check: projectCredentials('search'),
      rateLimits: { search: config.rateLimits?.search ?? 0, catalog: config.rateLimits?.catalog ?? 0, admin: config.rateLimits?.admin ?? 0 }
    },
    openApi: {
      title: 'Search Service API',
      description: 'Catalog and knowledge search scoped to a project: keyword and hybrid search with a matching strategy, filters, facets, facet search, sort, highlighting and cropping, synonyms and stop words, autocomplete with query suggestions, rules that pin or hide items for a query, and click and conversion events; knowledge pages and question-and-answer pairs searched by chunk.',
      servers: [
        { url: '/', description: 'The search service itself, on its own host and port (SEARCH_PORT, 3002 by default)' },
        { url: '/search', description: 'Through the gateway of docker-compose.yml, which serves the search API under /search' }
      ],
      tags: [
        { name: 'search', description: 'Search the project\'s catalog by keyword or hybrid (semantic and keyword) matching, with filters, facets and pagination; search a facet\'s values; autocomplete a partial term, and review the popular searches it may suggest; record shoppers\' clicks on hits and conversions, for the analytics' },
        { name: 'catalog', description: 'Maintain the project\'s catalog: add, replace and remove items, read and replace its index settings (what the CLI\'s catalog import calls)' },
        { name: 'rules', description: 'The project\'s search rules: for the searches a rule\'s query matches, optionally between two dates, pin items to positions and hide items; the same on both engines' },
        { name: 'knowledge', description: 'Maintain and search the project\'s knowledge: help pages, policies and question-and-answer pairs, split into chunks along their headings and searched by keyword and meaning' },
        { name: 'tasks', description: 'Follow long work (large catalog imports, crawls, file imports): status, progress, what was done and why it failed' },
        { name: 'admin', description: 'For the console only (decision 15): the service token with X-Project-Id; never routed by the gateway' }
      ]
    },
    checks: (app) => ({ engine: () => app.engine.ping() })
  }
}

async function register (app: FastifyInstance, config: SearchConfig) {
  const searchCache = VersionedCache.create(app.redis, SEARCH_CACHE_PREFIX, (config.cacheTtlS ?? 0) * 1000, app.log,
    (result) => app.metrics.cacheRequests.inc({ cache: 'search', result }))
  app.decorate('searchCache', searchCache)
  app.metrics.store('search_responses', () => searchCache.memory ?? { entries: 0, bytes: 0 })
  app.addHook('onClose', async () => { searchCache.close() })
  const searchRules = new RulesStore(app.pg)
  app.decorate('searchRules', searchRules)
  app.metrics.store('search_rules', () => searchRules.size)
  await app.register(enginePlugin, {
    dataDir: config.dataDir,
    embeddings: config.embeddings,
    readers: config.readers,
    ...(config.threadNice === undefined ? {} : { threadNice: config.threadNice }),
    ...(config.openIndexes === undefined ? {} : { openIndexes: config.openIndexes }),
    ...(config.embedder === undefined ? {} : { embedder: config.embedder }),
    ...(config.catalogEmbedder === undefined ? {} : { catalogEmbedder: config.catalogEmbedder }),
    ...(config.embedThreads === undefined ? {} : { embedThreads: config.embedThreads }),
    ...(config.remoteEmbeddings === undefined ? {} : { remoteEmbeddings: config.remoteEmbeddings }),
    ...(config.meilisearch === undefined ? {} : { meilisearch: config.meilisearch })
  })
  // Both services run a delivery worker (SKIP LOCKED): each one's events go out even when the other is down.
  // A task's end is announced in the transaction that ends it (queueTaskEnded), whoever sends it.
  await app.register(webhooksPlugin, config.webhooks ?? WEBHOOK_DEFAULTS)
  await app.register(tasksPlugin, {
    ...TASK_DEFAULTS,
    ...config.tasks,
    ended: queueTaskEnded
  })
  await app.tasks.register('catalog_import', catalogImport(app))
  await app.tasks.register('crawl', knowledgeCrawl(app, crawlLimitsOf(config)))
  await app.tasks.register('files', knowledgeFiles(app))
  await app.register(async (api) => {
    api.addHook('onRequest', api.authenticate)
    await api.register(searchRoutes)
    await api.register(suggestionRoutes)
    await api.register(eventRoutes)
    await api.register(documentRoutes, { catalogTask: config.catalogTask ?? CATALOG_TASK_DEFAULT })
    await api.register(ruleRoutes)
    await api.register(knowledgeRoutes)
    await api.register(knowledgeFileRoutes)
    await api.register(taskRoutes)
    await api.register(adminRoutes)
  })
}

/** The search service as a Fastify app, ready to listen or inject. */
export async function buildApp (config: SearchConfig): Promise<FastifyInstance> {
  return await buildOnServiceBase(baseOf(config), (app) => register(app, config))
}
