import { join } from 'node:path'
import fp from 'fastify-plugin'
import { loadEmbedder, type Embedder } from '@chatsearch/embeddings'
import { EmbeddedEngine } from './engines/embedded/engine.js'
import type { SearchEngine } from './engine/port.js'
import { SearchAnalytics } from './analytics.js'

declare module 'fastify' {
  interface FastifyInstance {
    engine: SearchEngine
    /** Undefined when embeddings are switched off: hybrid search is then refused. */
    embedder: Embedder | undefined
    analytics: SearchAnalytics
  }
}

export interface EngineOptions {
  dataDir: string
  embeddings: boolean
}

/** The search engine, the embedder and the analytics recorder, shared by the routes. */
export const enginePlugin = fp<EngineOptions>(async (app, opts) => {
  const embedder = opts.embeddings ? await loadEmbedder() : undefined
  const engine = new EmbeddedEngine(join(opts.dataDir, 'search'), embedder?.dimensions ?? 512)
  const analytics = new SearchAnalytics(app.pg, engine, app.log)
  app.decorate('engine', engine)
  app.decorate('embedder', embedder)
  app.decorate('analytics', analytics)
  app.addHook('onClose', async () => {
    await analytics.flush()
    await engine.close()
  })
}, { name: '@chatsearch/search-engine', fastify: '5.x', dependencies: ['@chatsearch/database'] })
