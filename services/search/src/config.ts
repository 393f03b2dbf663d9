import { Type, type Static } from 'typebox'
import { commonEnv, ConfigError, loadConfig, rateLimitEnv, serviceConfigOf, type ServiceConfig } from '@chatsearch/shell'
import { webhookConfigOf, webhookEnv, type WebhookConfig } from '@chatsearch/webhooks'
import type { MeilisearchOptions } from './engines/meilisearch/engine.js'
import { OPEN_INDEXES_DEFAULT } from './engines/embedded/open-indexes.js'
import { CATALOG_TASK_DEFAULT, type CatalogTaskThreshold } from './routes/documents.js'
import { TASK_DEFAULTS, type TaskQueueOptions } from './tasks/queue.js'
import { DEFAULT_CRAWL_MINUTES } from './knowledge/crawl/options.js'

/** Every environment variable the search service reads; README's configuration table mirrors it. */
export const SearchEnvSchema = Type.Object({
  ...commonEnv,
  ...webhookEnv,
  SEARCH_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3002 }),
  EMBEDDINGS: Type.Boolean({ default: true }),
  SEARCH_READERS: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  /** How much lower than the event loop the embedded engine's reader and writer threads run (Linux nice steps; 0: the same). */
  SEARCH_THREAD_NICE: Type.Integer({ minimum: 0, maximum: 19, default: 5 }),
  /** Index files (a project's catalog, its knowledge) the embedded engine keeps open at most; the least recently used free one closes first. */
  SEARCH_OPEN_INDEXES: Type.Integer({ minimum: 1, maximum: 100_000, default: OPEN_INDEXES_DEFAULT }),
  /** The knowledge's bundled embedder: `use-lite` (the sentence encoder) or `static` (USE-lite's word pieces, summed: no model runs per text). */
  EMBEDDER: Type.Union([Type.Literal('use-lite'), Type.Literal('static')], { default: 'use-lite' }),
  /** The bundled embedder of catalog items and catalog searches; absent: EMBEDDER's. Knowledge keeps EMBEDDER's. */
  CATALOG_EMBEDDER: Type.Optional(Type.Union([Type.Literal('use-lite'), Type.Literal('static')])),
  /** Worker threads that embed with the bundled model, batching concurrent texts (0: on the event loop). */
  EMBED_THREADS: Type.Integer({ minimum: 0, maximum: 16, default: 1 }),
  EMBEDDINGS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  EMBEDDINGS_MODEL: Type.String({ default: 'text-embedding-3-small' }),
  EMBEDDINGS_API_KEY: Type.Optional(Type.String()),
  /** Default: `meilisearch` when MEILI_URL is set, else `embedded`. */
  SEARCH_ENGINE: Type.Optional(Type.Union([Type.Literal('embedded'), Type.Literal('meilisearch')])),
  MEILI_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  MEILI_API_KEY: Type.Optional(Type.String()),
  MEILI_INDEX_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]{0,100}$', default: 'chatsearch-' }),
  MEILI_TASK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 30_000 }),
  /** POST /search and /autocomplete per credential and minute (0: unlimited). */
  RATE_LIMIT_SEARCH: rateLimitEnv(3000),
  /** Catalog routes (/documents, /settings) per credential and minute (0: unlimited). */
  RATE_LIMIT_CATALOG: rateLimitEnv(300),
  /** The /admin routes (the console's) per project and minute (0: unlimited). */
  RATE_LIMIT_ADMIN: rateLimitEnv(600),
  /** How long a search or autocomplete response is cached (0: no cache); a catalog change ends it at once. */
  SEARCH_CACHE_TTL_S: Type.Integer({ minimum: 0, maximum: 86_400, default: 60 }),
  /** Tasks of each type (crawl, files, catalog_import) one replica runs at once. */
  TASK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 16, default: TASK_DEFAULTS.concurrency }),
  /** How often a running task says it is alive; one silent for 3 times this is taken over by a replica. */
  TASK_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: TASK_DEFAULTS.heartbeatMs }),
  /** Replicas that may take a task before it fails (a replica dying mid-task counts one). */
  TASK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: TASK_DEFAULTS.maxAttempts }),
  /** Tasks one project may have waiting to run; past it a crawl, an upload or a catalog import task is 429 too_many_tasks (0: no limit). */
  TASKS_WAITING_MAX: Type.Integer({ minimum: 0, maximum: 1_000_000, default: TASK_DEFAULTS.maxWaiting }),
  /** POST /documents with more items than this answers 202 and imports them as a task. */
  CATALOG_TASK_ITEMS: Type.Integer({ minimum: 0, maximum: 10_000_000, default: CATALOG_TASK_DEFAULT.items }),
  /** POST /documents with a body larger than this (bytes) answers 202 and imports it as a task. */
  CATALOG_TASK_BYTES: Type.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024, default: CATALOG_TASK_DEFAULT.bytes }),
  /** Crawls may reach loopback, private and other internal addresses (tests, local development). */
  CRAWL_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false }),
  /** A crawl fetches no new page after this many minutes; what it stored is kept. */
  CRAWL_MAX_MINUTES: Type.Integer({ minimum: 1, maximum: 1440, default: DEFAULT_CRAWL_MINUTES })
})
export type SearchEnv = Static<typeof SearchEnvSchema>

export interface SearchConfig extends ServiceConfig {
  /** Where the embedded engine keeps one SQLite index per project (under search/). */
  dataDir: string
  /** Reader threads for searches (0: on the event loop). */
  readers: number
  /** How much lower than the event loop the reader and writer threads run (Linux nice steps); absent: 0. */
  threadNice?: number
  /** Index files the embedded engine keeps open at most (see OpenIndexes); absent: OPEN_INDEXES_DEFAULT. */
  openIndexes?: number
  /** Compute embeddings at ingestion and allow hybrid search. */
  embeddings: boolean
  /** The knowledge's bundled embedder (EMBEDDER); absent: use-lite. */
  embedder?: BundledEmbedder
  /** The bundled embedder of the catalogs (CATALOG_EMBEDDER); absent: `embedder`'s. */
  catalogEmbedder?: BundledEmbedder
  /** Worker threads of USE-lite (0: it runs on the event loop); absent: 1. */
  embedThreads?: number
  /** An OpenAI-compatible embeddings API instead of the bundled model. */
  remoteEmbeddings?: { baseUrl: string, model: string, apiKey?: string }
  /** Search on this Meilisearch server instead of the embedded engine. */
  meilisearch?: MeilisearchOptions
  /** Requests per credential and minute; absent or 0: unlimited. */
  rateLimits?: { search: number, catalog: number, admin?: number }
  /** Response cache lifetime in seconds; absent or 0: no cache. */
  cacheTtlS?: number
  /** The task queue's settings; absent ones take TASK_DEFAULTS. */
  tasks?: Partial<TaskQueueOptions>
  /** When POST /documents answers 202 with a task; absent: 10,000 items or 8 MiB. */
  catalogTask?: CatalogTaskThreshold
  /** Crawls may reach loopback, private and other internal addresses (CRAWL_ALLOW_PRIVATE_NETWORKS). */
  crawlAllowPrivateNetworks?: boolean
  /** A crawl's time for fetching pages (CRAWL_MAX_MINUTES); absent: DEFAULT_CRAWL_MINUTES. */
  crawlMaxMinutes?: number
  /** How webhooks are delivered (WEBHOOK_*); absent: the defaults, internal addresses refused. */
  webhooks?: WebhookConfig
}

/** SEARCH_ENGINE, MEILI_URL and the rest as the Meilisearch options, when Meilisearch is the engine. */
function meilisearchOf (env: SearchEnv): MeilisearchOptions | undefined {
  const engine = env.SEARCH_ENGINE ?? (env.MEILI_URL === undefined ? 'embedded' : 'meilisearch')
  if (engine === 'embedded') return undefined
  if (env.MEILI_URL === undefined) throw new ConfigError(['SEARCH_ENGINE: meilisearch needs MEILI_URL (e.g. http://127.0.0.1:7700)'])
  return {
    url: env.MEILI_URL,
    ...(env.MEILI_API_KEY === undefined ? {} : { apiKey: env.MEILI_API_KEY }),
    indexPrefix: env.MEILI_INDEX_PREFIX,
    taskTimeoutMs: env.MEILI_TASK_TIMEOUT_MS
  }
}

/** The bundled embedders EMBEDDER names. */
export type BundledEmbedder = SearchEnv['EMBEDDER']

/** The variables, checked at once: a bad combination stops the start before anything is opened. */
export function readSearchEnv (env: NodeJS.ProcessEnv = process.env): SearchEnv {
  const read = loadConfig(SearchEnvSchema, env)
  meilisearchOf(read)
  return read
}

export function searchConfig (env: SearchEnv, databaseUrl: string): SearchConfig {
  const meilisearch = meilisearchOf(env)
  return {
    ...serviceConfigOf(env, databaseUrl),
    dataDir: env.DATA_DIR,
    embeddings: env.EMBEDDINGS,
    readers: env.SEARCH_READERS,
    threadNice: env.SEARCH_THREAD_NICE,
    openIndexes: env.SEARCH_OPEN_INDEXES,
    embedder: env.EMBEDDER,
    ...(env.CATALOG_EMBEDDER === undefined ? {} : { catalogEmbedder: env.CATALOG_EMBEDDER }),
    embedThreads: env.EMBED_THREADS,
    ...(env.EMBEDDINGS_URL === undefined
      ? {}
      : { remoteEmbeddings: { baseUrl: env.EMBEDDINGS_URL, model: env.EMBEDDINGS_MODEL, ...(env.EMBEDDINGS_API_KEY === undefined ? {} : { apiKey: env.EMBEDDINGS_API_KEY }) } }),
    ...(meilisearch === undefined ? {} : { meilisearch }),
    rateLimits: { search: env.RATE_LIMIT_SEARCH, catalog: env.RATE_LIMIT_CATALOG, admin: env.RATE_LIMIT_ADMIN },
    cacheTtlS: env.SEARCH_CACHE_TTL_S,
    // Half the shutdown grace for running tasks: the rest of the app must close within it too.
    tasks: { concurrency: env.TASK_CONCURRENCY, heartbeatMs: env.TASK_HEARTBEAT_MS, maxAttempts: env.TASK_MAX_ATTEMPTS, maxWaiting: env.TASKS_WAITING_MAX, shutdownGraceMs: Math.floor(env.SHUTDOWN_GRACE_MS / 2) },
    catalogTask: { items: env.CATALOG_TASK_ITEMS, bytes: env.CATALOG_TASK_BYTES },
    crawlAllowPrivateNetworks: env.CRAWL_ALLOW_PRIVATE_NETWORKS,
    crawlMaxMinutes: env.CRAWL_MAX_MINUTES,
    webhooks: webhookConfigOf(env)
  }
}
