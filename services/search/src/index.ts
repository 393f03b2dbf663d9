export { buildApp, searchMigrations } from './app.js'
export { readSearchEnv, searchConfig, SearchEnvSchema, type SearchConfig, type SearchEnv } from './config.js'
export { EmbeddedEngine } from './engines/embedded/engine.js'
export { ingestDocuments, type IngestResult } from './ingest/documents.js'
export { validateDocument, DocumentError } from './ingest/validate.js'
export type { IndexSettings } from './engine/port.js'
export const demoCatalogFile = new URL('../catalog/demo-catalog.json', import.meta.url)
export { createEmbedder } from './engine-plugin.js'
export { SEARCH_CACHE_PREFIX } from './response-cache.js'
