import { LRUCache } from 'lru-cache'
import type { Embedder } from '@chatsearch/embeddings'

/** Query texts whose vectors are kept: about 2 MB of 512-dimension vectors. */
export const QUERY_VECTORS_KEPT = 1000

/**
 * The vectors of hybrid queries' texts (catalog and knowledge), each embedded once while it stays
 * among the recent ones: shoppers repeat searches, and USE-lite takes about 15 ms for a short query
 * on 2 busy cores, a kept vector nothing. The least recently used text goes first (lru-cache). Each
 * caller gets its own copy, so no caller can change another's vector. Only vectors are kept: a
 * failure is thrown and tried again next time.
 */
export class QueryVectors {
  readonly #embedder: Embedder
  readonly #vectors: LRUCache<string, Float32Array>

  constructor (embedder: Embedder, kept = QUERY_VECTORS_KEPT) {
    this.#embedder = embedder
    this.#vectors = new LRUCache({ max: kept })
  }

  /** Texts whose vectors are kept (memory_store_entries{store="search_query_vectors"}). */
  get size (): number {
    return this.#vectors.size
  }

  async vector (text: string): Promise<Float32Array> {
    let vector = this.#vectors.get(text)
    if (vector === undefined) {
      ;[vector] = await this.#embedder.embed([text])
      if (vector === undefined) throw new Error('the embedder returned no vector for the query')
      this.#vectors.set(text, vector)
    }
    return vector.slice()
  }
}
