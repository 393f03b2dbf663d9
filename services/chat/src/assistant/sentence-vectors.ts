import { LRUCache } from 'lru-cache'
import type { Embedder } from '@chatsearch/embeddings'

/**
 * Sentence embeddings for choosing what to quote (sentences.ts), kept by their text: a help centre's
 * sentences come back turn after turn, so each is embedded once while it stays among the most
 * recently used. Bounded by entries (a 512-d vector is 2 KiB: 2 MiB of vectors at most each 1,000).
 */
export const SENTENCE_CACHE_ENTRIES = 20_000

export class SentenceVectors {
  readonly #embedder: Embedder
  readonly #cache = new LRUCache<string, Float32Array>({ max: SENTENCE_CACHE_ENTRIES })

  constructor (embedder: Embedder) {
    this.#embedder = embedder
  }

  get size (): number { return this.#cache.size }

  /** The cosine similarity of `text` with each of `sentences` (the vectors are unit length). */
  async similarities (text: string, sentences: string[]): Promise<number[]> {
    // The vectors this call uses are held here: other turns may evict them from the cache while it embeds.
    const vectors = new Map<string, Float32Array>()
    const wanted: string[] = []
    for (const s of new Set([text, ...sentences])) {
      const cached = this.#cache.get(s)
      if (cached === undefined) wanted.push(s)
      else vectors.set(s, cached)
    }
    if (wanted.length > 0) {
      const embedded = await this.#embedder.embed(wanted)
      wanted.forEach((s, i) => { vectors.set(s, embedded[i]!); this.#cache.set(s, embedded[i]!) })
    }
    const query = vectors.get(text)!
    return sentences.map((s) => {
      const v = vectors.get(s)!
      let dot = 0
      for (let d = 0; d < v.length; d++) dot += v[d]! * query[d]!
      return dot
    })
  }
}
