import type { Embedder } from '@chatsearch/embeddings'
import { createEmbedder, createEngine, readSearchEnv, searchConfig, type SearchConfig } from '@chatsearch/search/tools'

export type SearchEngine = ReturnType<typeof createEngine>

/** The search service's settings, from the same variables (DATA_DIR, EMBEDDINGS, MEILI_URL, TASK_…, CRAWL_…). */
export const searchSettings = (env: NodeJS.ProcessEnv): SearchConfig => searchConfig(readSearchEnv(env), '')

/**
 * The engine the search service is configured with (searches here need no reader threads) and, when
 * `embeddings` is asked for and configured, the embedder that writes into it. The caller closes the engine.
 */
export async function openEngine (config: SearchConfig, embeddings: boolean): Promise<{ engine: SearchEngine, embedder: Embedder | undefined }> {
  const { embedder, id } = await createEmbedder({ ...config, embeddings: embeddings && config.embeddings })
  return { engine: createEngine({ ...config, readers: 0 }, { id, dimensions: embedder?.dimensions ?? 512 }), embedder }
}

/** Runs `work` with the engine and embedder of openEngine, and closes the engine. */
export async function withEngine<T> (config: SearchConfig, embeddings: boolean, work: (engine: SearchEngine, embedder: Embedder | undefined) => Promise<T>): Promise<T> {
  const { engine, embedder } = await openEngine(config, embeddings)
  try {
    return await work(engine, embedder)
  } finally {
    await engine.close()
  }
}
