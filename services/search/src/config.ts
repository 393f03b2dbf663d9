import { Type, type Static } from 'typebox'
import { commonEnv, loadConfig, type LogDestination, type LogLevel } from '@chatsearch/shell'

/** Every environment variable the search service reads; README's configuration table mirrors it. */
export const SearchEnvSchema = Type.Object({
  ...commonEnv,
  SEARCH_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3002 }),
  EMBEDDINGS: Type.Boolean({ default: true }),
  SEARCH_READERS: Type.Integer({ minimum: 0, maximum: 16, default: 2 }),
  EMBEDDINGS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  EMBEDDINGS_MODEL: Type.String({ default: 'text-embedding-3-small' }),
  EMBEDDINGS_API_KEY: Type.Optional(Type.String())
})
export type SearchEnv = Static<typeof SearchEnvSchema>

export interface SearchConfig {
  databaseUrl: string
  /** Where the embedded engine keeps one SQLite index per project (under search/). */
  dataDir: string
  /** Reader threads for searches (0: on the event loop). */
  readers: number
  /** Compute embeddings at ingestion and allow hybrid search. */
  embeddings: boolean
  /** An OpenAI-compatible embeddings API instead of the bundled model. */
  remoteEmbeddings?: { baseUrl: string, model: string, apiKey?: string }
  logLevel: LogLevel
  /** Where log lines go; stdout by default. */
  logStream?: LogDestination
  /** Asked by GET /metrics when set. */
  metricsToken?: string
  dbPoolSize: number
  authCacheTtlMs: number
  /** The shared secret the chat service presents (see @chatsearch/auth); unset: not accepted. */
  serviceToken?: string
}

export const readSearchEnv = (env: NodeJS.ProcessEnv = process.env): SearchEnv => loadConfig(SearchEnvSchema, env)

export function searchConfig (env: SearchEnv, databaseUrl: string): SearchConfig {
  return {
    databaseUrl,
    dataDir: env.DATA_DIR,
    embeddings: env.EMBEDDINGS,
    readers: env.SEARCH_READERS,
    ...(env.EMBEDDINGS_URL === undefined
      ? {}
      : { remoteEmbeddings: { baseUrl: env.EMBEDDINGS_URL, model: env.EMBEDDINGS_MODEL, ...(env.EMBEDDINGS_API_KEY === undefined ? {} : { apiKey: env.EMBEDDINGS_API_KEY }) } }),
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    dbPoolSize: env.DB_POOL_SIZE,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    ...(env.SERVICE_TOKEN === undefined ? {} : { serviceToken: env.SERVICE_TOKEN })
  }
}
