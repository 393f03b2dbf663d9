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
 * The words of the chunks searched lately (chunkWords), by chunk rowid, so that a search tokenizes
 * only the candidates it has not met before: tokenizing 200 to 400 candidates of 800 characters was
 * most of a search's own time. The least recently used chunk goes first past MAX_KEPT_WORDS; the
 * index empties it whenever its file changes (its own writes, or another process's).
 */
export class KeptChunkWords {
  readonly #chunks = new Map<number, ChunkWords>()
  readonly #shared = new Map<string, string>()
  #words = 0

  /** Words kept, over all chunks (a word in two chunks counts twice). */
  get words (): number {
    return this.#words
  }

  get (rowid: number): ChunkWords | undefined {
    const words = this.#chunks.get(rowid)
    if (words !== undefined) {
      // Map keeps insertion order: moved to the end, the chunk is the last to go.
      this.#chunks.delete(rowid)
      this.#chunks.set(rowid, words)
    }
    return words
  }

  keep (rowid: number, words: ChunkWords): ChunkWords {
    if (this.#shared.size > MAX_SHARED_WORDS) this.#shared.clear()
    const kept = words.map((word) => {
      const shared = this.#shared.get(word)
      if (shared !== undefined) return shared
      this.#shared.set(word, word)
      return word
    })
    this.#forget(rowid)
    this.#chunks.set(rowid, kept)
    this.#words += kept.length
    for (const oldest of this.#chunks.keys()) {
      if (this.#words <= MAX_KEPT_WORDS || oldest === rowid) break
      this.#forget(oldest)
    }
    return kept
  }

  clear () {
    this.#chunks.clear()
    this.#shared.clear()
    this.#words = 0
  }

  #forget (rowid: number) {
    const words = this.#chunks.get(rowid)
    if (words === undefined) return
    this.#words -= words.length
    this.#chunks.delete(rowid)
  }
}
