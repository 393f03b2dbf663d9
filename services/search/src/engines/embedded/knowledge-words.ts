import { LRUCache } from 'lru-cache'
import type { ChunkWords } from './knowledge-ranking.js'

/**
 * Words kept per knowledge index (see README, "Memory"): those of about 14,000 chunks of 800
 * characters (some 70 distinct words each), a reference of 8 bytes each besides the words
 * themselves, which the chunks share.
 */
export const MAX_KEPT_WORDS = 1_000_000
/** Distinct words shared between the kept chunks; past it, sharing starts again (only memory is at stake). */
const MAX_SHARED_WORDS = 200_000

/**
 * The words of the chunks searched or written lately (chunkWords), by chunk rowid, so that a search tokenizes
 * only the candidates it has not met before: tokenizing 200 to 400 candidates of 800 characters was
 * most of a search's own time. Past MAX_KEPT_WORDS the least recently used chunk goes first
 * (lru-cache, sized in words). The index keeps the words of the chunks it writes, forgets those of
 * the chunks it deletes, and empties it whenever another process (the admin CLI) writes to its file.
 */
export class KeptChunkWords {
  readonly #chunks = new LRUCache<number, ChunkWords>({ maxSize: MAX_KEPT_WORDS, sizeCalculation: (words) => Math.max(1, words.length) })
  readonly #shared = new Map<string, string>()

  /** Words kept, over all chunks (a word in two chunks counts twice; a chunk without a word counts one). */
  get words (): number {
    return this.#chunks.calculatedSize
  }

  get (rowid: number): ChunkWords | undefined {
    return this.#chunks.get(rowid)
  }

  keep (rowid: number, words: ChunkWords): ChunkWords {
    if (this.#shared.size > MAX_SHARED_WORDS) this.#shared.clear()
    const kept = words.map((word) => {
      const shared = this.#shared.get(word)
      if (shared !== undefined) return shared
      this.#shared.set(word, word)
      return word
    })
    this.#chunks.set(rowid, kept)
    return kept
  }

  forget (rowid: number) {
    this.#chunks.delete(rowid)
  }

  clear () {
    this.#chunks.clear()
    this.#shared.clear()
  }
}
