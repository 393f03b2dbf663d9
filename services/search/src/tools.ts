// What the admin CLI uses of the search service: its engines, catalog ingestion and configuration,
// without the HTTP app. The app's own imports (knowledge parsers, crawler, PDF reader, job queue) take
// about a second to load, which every CLI command would pay for nothing.
export { readSearchEnv, searchConfig, type SearchConfig } from './config.js'
export { createEmbedder, createEmbedders, createEngine } from './engine-plugin.js'
export type { EngineIndex, IndexSettings } from './engine/port.js'
export { wordSettingsProblem } from './engine/query-terms.js'
export { ingestDocuments } from './ingest/documents.js'
export { validateDocument } from './ingest/validate.js'
export { SEARCH_CACHE_PREFIX } from './response-cache.js'
export { knowledgePage } from './knowledge/listing.js'
export { isHttpUrl } from './knowledge/http-url.js'
