import { LRUCache } from 'lru-cache'
import type { Embedder } from '@chatsearch/embeddings'

/**
 * Sentence embeddings for choosing what to quote (sentences.ts), kept by their text: a help centre's
 * sentences come back turn after turn, so each is embedded once while it stays among the most
 * recently used. Bounded by entries (a 512-d vector is 2 KiB: 2 MiB of vectors at most each 1,000).
 */
export const SENTENCE_CACHE_ENTRIES = 20_000

/**
 * The messages compared with them, kept apart and fewer: a help centre's common questions repeat
 * and are embedded once, while the many messages asked once only cycle through this small cache
 * instead of filling the sentences' (one kept with the sentences grew the heap by a vector per new
 * message until that cap, about 40 MiB; one not kept at all embedded every repeated question again).
 */
export const MESSAGE_CACHE_ENTRIES = 1_000

export class SentenceVectors {
  readonly #embedder: Embedder
  readonly #sentences = new LRUCache<string, Float32Array>({ max: SENTENCE_CACHE_ENTRIES })
  readonly #messages = new LRUCache<string, Float32Array>({ max: MESSAGE_CACHE_ENTRIES })
  readonly #pending = new Map<string, Promise<Float32Array>>()

  constructor (embedder: Embedder) {
    this.#embedder = embedder
  }

  /** Sentences kept. */
  get size (): number { return this.#sentences.size }

  /** Messages kept. */
  get messages (): number { return this.#messages.size }

  /**
   * The message's vector, from the messages kept, or embedded now and kept; one being embedded is
   * waited for, not embedded again (the classifier and the passages' weighing ask at once).
   */
  async message (text: string): Promise<Float32Array> {
    const cached = this.#messages.get(text)
    if (cached !== undefined) return cached
    let pending = this.#pending.get(text)
    if (pending === undefined) {
      pending = this.#embedder.embed([text])
        .then(([vector]) => { this.#messages.set(text, vector!); return vector! })
        .finally(() => this.#pending.delete(text))
      this.#pending.set(text, pending)
    }
    return await pending
  }

  /** The cosine similarity of `text` with each of `sentences` (the vectors are unit length). */
  async similarities (text: string, sentences: string[]): Promise<number[]> {
    // The message's vector is the one the classifier is given (message()); the sentences go in one batch.
    const asked = this.message(text)
    asked.catch(() => {}) // awaited below, after the sentences
    // The vectors this call uses are held here: other turns may evict them from the caches while it embeds.
    const vectors = new Map<string, Float32Array>()
    const wanted: string[] = []
    for (const s of new Set(sentences)) {
      if (s === text) continue
      const cached = this.#sentences.get(s)
      if (cached === undefined) wanted.push(s)
      else vectors.set(s, cached)
    }
    if (wanted.length > 0) {
      const embedded = await this.#embedder.embed(wanted)
      wanted.forEach((s, i) => { vectors.set(s, embedded[i]!); this.#sentences.set(s, embedded[i]!) })
    }
    const query = await asked
    vectors.set(text, query)
    return sentences.map((s) => {
      const v = vectors.get(s)!
      let dot = 0
      for (let d = 0; d < v.length; d++) dot += v[d]! * query[d]!
      return dot
    })
  }
}
