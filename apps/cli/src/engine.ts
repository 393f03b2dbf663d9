import type { Embedder } from '@chatsearch/embeddings'
import { createEmbedders, createEngine, readSearchEnv, searchConfig, type SearchConfig } from '@chatsearch/search/tools'

export type SearchEngine = ReturnType<typeof createEngine>

/** The search service's settings, from the same variables (DATA_DIR, EMBEDDINGS, MEILI_URL, TASK_…, CRAWL_…). */
export const searchSettings = (env: NodeJS.ProcessEnv): SearchConfig => searchConfig(readSearchEnv(env), '')

/**
 * The engine the search service is configured with (searches here need no reader threads) and, when
 * `embeddings` is asked for and configured, the embedders that write into it: the knowledge's
 * (`embedder`) and the catalogs' (CATALOG_EMBEDDER). The caller closes the engine.
 */
export async function openEngine (config: SearchConfig, embeddings: boolean): Promise<{ engine: SearchEngine, embedder: Embedder | undefined, catalogEmbedder: Embedder | undefined }> {
  const { knowledge, catalog } = await createEmbedders({ ...config, embeddings: embeddings && config.embeddings })
  const engine = createEngine({ ...config, readers: 0 }, { id: catalog.id, dimensions: catalog.embedder?.dimensions ?? 512 }, undefined,
    { id: knowledge.id, dimensions: knowledge.embedder?.dimensions ?? 512 })
  return { engine, embedder: knowledge.embedder, catalogEmbedder: catalog.embedder }
}

/** Runs `work` with the engine and the catalogs' embedder of openEngine, and closes the engine. */
export async function withEngine<T> (config: SearchConfig, embeddings: boolean, work: (engine: SearchEngine, catalogEmbedder: Embedder | undefined) => Promise<T>): Promise<T> {
  const { engine, catalogEmbedder } = await openEngine(config, embeddings)
  try {
    return await work(engine, catalogEmbedder)
  } finally {
    await engine.close()
  }
}
