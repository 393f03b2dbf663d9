import { join } from 'node:path'
import fp from 'fastify-plugin'
import type { Metrics } from '@chatsearch/shell'
import { loadEmbedder, loadStaticEmbedder, openAiEmbedder, STATIC_EMBEDDER_ID, type Embedder } from '@chatsearch/embeddings'
import { EmbeddedEngine } from './engines/embedded/engine.js'
import { OPEN_INDEXES_DEFAULT } from './engines/embedded/open-indexes.js'
import { MeilisearchEngine, type MeilisearchOptions } from './engines/meilisearch/engine.js'
import type { SearchEngine } from './engine/port.js'
import type { BundledEmbedder } from './config.js'
import { SearchAnalytics } from './analytics.js'
import { timedEmbedder, timedEngine } from './engine/timed.js'
import { QueryVectors } from './query-vectors.js'

declare module 'fastify' {
  interface FastifyInstance {
    engine: SearchEngine
    /** The knowledge's embedder; undefined when embeddings are switched off: hybrid search is then refused. */
    embedder: Embedder | undefined
    /** The catalogs' (CATALOG_EMBEDDER): `embedder` itself unless another is configured. */
    catalogEmbedder: Embedder | undefined
    /** The embedder's vectors of hybrid knowledge queries' texts, the recent ones kept; undefined without an embedder. */
    queryVectors: QueryVectors | undefined
    /** The catalog embedder's, for hybrid catalog searches: `queryVectors` itself when the embedders are one. */
    catalogQueryVectors: QueryVectors | undefined
    analytics: SearchAnalytics
  }
}

export interface EngineOptions {
  dataDir: string
  embeddings: boolean
  /** The knowledge's bundled embedder (EMBEDDER); absent: use-lite. */
  embedder?: BundledEmbedder
  /** The bundled embedder of the catalogs (CATALOG_EMBEDDER); absent: `embedder`'s. */
  catalogEmbedder?: BundledEmbedder
  /** Worker threads of USE-lite (0: it runs on the event loop); absent: 1. */
  embedThreads?: number
  readers: number
  /** How much lower than the event loop the embedded engine's reader and writer threads run (Linux nice steps). */
  threadNice?: number
  /** Index files the embedded engine keeps open at most (SEARCH_OPEN_INDEXES); absent: OPEN_INDEXES_DEFAULT. */
  openIndexes?: number
  /** An OpenAI-compatible embeddings API instead of the bundled model. */
  remoteEmbeddings?: { baseUrl: string, model: string, apiKey?: string }
  /** Meilisearch instead of the embedded engine. */
  meilisearch?: MeilisearchOptions
}

interface Log { warn: (obj: object, message: string) => void }

/** The embedder and a name for it: vectors of different embedders never mix in one index. */
export async function createEmbedder (opts: EngineOptions, log?: Log): Promise<{ embedder: Embedder | undefined, id: string }> {
  if (!opts.embeddings) return { embedder: undefined, id: 'none' }
  if (opts.remoteEmbeddings !== undefined) {
    const embedder = await openAiEmbedder(opts.remoteEmbeddings)
    return { embedder, id: `openai:${opts.remoteEmbeddings.model}:${embedder.dimensions}` }
  }
  if (opts.embedder === 'static') {
    const embedder = await loadStaticEmbedder({ onBuilt: (ms) => log?.warn({ ms: Math.round(ms) }, 'built the static embedder\'s piece table (the install\'s prepare step did not)') })
    return { embedder, id: STATIC_EMBEDDER_ID }
  }
  const embedder = await loadEmbedder(opts.embedThreads === undefined ? {} : { threads: opts.embedThreads })
  return { embedder, id: `use-lite:${embedder.dimensions}` }
}

/**
 * The knowledge's embedder (createEmbedder) and the catalogs' (CATALOG_EMBEDDER), one and the same
 * unless CATALOG_EMBEDDER names another bundled one; an embeddings API embeds both.
 */
export async function createEmbedders (opts: EngineOptions, log?: Log): Promise<{ knowledge: Awaited<ReturnType<typeof createEmbedder>>, catalog: Awaited<ReturnType<typeof createEmbedder>> }> {
  const knowledge = await createEmbedder(opts, log)
  const catalog = opts.catalogEmbedder ?? opts.embedder ?? 'use-lite'
  const other = catalog !== (opts.embedder ?? 'use-lite') && opts.remoteEmbeddings === undefined
  return { knowledge, catalog: other ? await createEmbedder({ ...opts, embedder: catalog }, log) : knowledge }
}

/**
 * The configured engine, storing the catalogs' vectors of the embedder named `embedder.id` and the
 * knowledge's of `knowledgeEmbedder.id` (absent: the same): Meilisearch when its
 * options are given, else the embedded engine under `dataDir` (with `readers` reader threads and at
 * most `openIndexes` index files open).
 */
export function createEngine (opts: Pick<EngineOptions, 'dataDir' | 'readers' | 'threadNice' | 'openIndexes' | 'meilisearch'>, embedder: { id: string, dimensions: number }, log?: Log,
  knowledgeEmbedder: { id: string, dimensions: number } = embedder): SearchEngine {
  if (opts.meilisearch !== undefined) return new MeilisearchEngine(opts.meilisearch, embedder, log, knowledgeEmbedder)
  return new EmbeddedEngine(join(opts.dataDir, 'search'), embedder, opts.readers, opts.threadNice ?? 0, opts.openIndexes ?? OPEN_INDEXES_DEFAULT, knowledgeEmbedder)
}

/** The work waiting inside the service, read when Prometheus scrapes. */
function queueGauges (metrics: Metrics, engine: SearchEngine, analytics: SearchAnalytics) {
  // Only the embedded engine with SEARCH_READERS > 0 has reader threads.
  if (engine instanceof EmbeddedEngine && engine.readerLoad() !== undefined) {
    metrics.gauge({
      name: 'search_reader_threads',
      help: 'Reader threads of the embedded engine by state (busy: running a search or suggestion; idle)',
      labelNames: ['state'],
      collect () {
        const load = engine.readerLoad()
        this.set({ state: 'busy' }, load?.busy ?? 0)
        this.set({ state: 'idle' }, load?.idle ?? 0)
      }
    })
    metrics.gauge({
      name: 'search_reader_queued_requests',
      help: 'Searches and suggestions waiting behind the one their reader thread is running',
      collect () { this.set(engine.readerLoad()?.queued ?? 0) }
    })
  }
  if (engine instanceof EmbeddedEngine) {
    metrics.store('search_open_indexes', () => ({ entries: engine.openIndexes }))
    metrics.store('search_writer_requests', () => ({ entries: engine.pendingWrites }))
    metrics.store('search_knowledge_words', () => ({ entries: engine.keptKnowledgeWords }))
  }
  metrics.gauge({
    name: 'search_analytics_pending_events',
    help: 'Searches and autocompletes recorded for analytics, not yet written to PostgreSQL',
    collect () { this.set(analytics.pending) }
  })
}

/** The search engine, the embedder (and its kept query vectors) and the analytics recorder, shared by the routes. */
export const enginePlugin = fp<EngineOptions>(async (app, opts) => {
  const loaded = await createEmbedders(opts, app.log)
  const timed = (e: Embedder | undefined) => e === undefined ? undefined : timedEmbedder(e, app.metrics)
  const embedder = timed(loaded.knowledge.embedder)
  const catalogEmbedder = loaded.catalog === loaded.knowledge ? embedder : timed(loaded.catalog.embedder)
  const created = createEngine(opts, { id: loaded.catalog.id, dimensions: catalogEmbedder?.dimensions ?? 512 }, app.log,
    { id: loaded.knowledge.id, dimensions: embedder?.dimensions ?? 512 })
  const engine = timedEngine(created, app.metrics)
  const analytics = new SearchAnalytics(app.pg, engine, app.log)
  queueGauges(app.metrics, created, analytics)
  app.decorate('engine', engine)
  app.decorate('embedder', embedder)
  app.decorate('catalogEmbedder', catalogEmbedder)
  const queryVectors = embedder === undefined ? undefined : new QueryVectors(embedder)
  const catalogQueryVectors = catalogEmbedder === embedder ? queryVectors : catalogEmbedder === undefined ? undefined : new QueryVectors(catalogEmbedder)
  if (queryVectors !== undefined) {
    app.metrics.store('search_query_vectors', () => ({ entries: queryVectors.size + (catalogQueryVectors !== queryVectors ? catalogQueryVectors?.size ?? 0 : 0) }))
  }
  app.decorate('queryVectors', queryVectors)
  app.decorate('catalogQueryVectors', catalogQueryVectors)
  app.decorate('analytics', analytics)
  app.addHook('onClose', async () => {
    await analytics.flush()
    await engine.close()
  })
}, { name: '@chatsearch/search-engine', fastify: '5.x', dependencies: ['@chatsearch/database', '@chatsearch/metrics'] })
