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
    const wanted = [...new Set([text, ...sentences])].filter((s) => !this.#cache.has(s))
    if (wanted.length > 0) {
      const vectors = await this.#embedder.embed(wanted)
      wanted.forEach((s, i) => this.#cache.set(s, vectors[i]!))
    }
    const query = this.#cache.get(text)!
    return sentences.map((s) => {
      const v = this.#cache.get(s)
      if (v === undefined) return 0
      let dot = 0
      for (let d = 0; d < v.length; d++) dot += v[d]! * query[d]!
      return dot
    })
  }
}
