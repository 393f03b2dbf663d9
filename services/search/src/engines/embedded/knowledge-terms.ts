import type { Statement } from './database.js'
import { VOCABULARY_MAX_NODES, Vocabulary } from './typo.js'

/**
 * A knowledge index's terms, for typos and prefixes (`vocabulary`), with the number of chunks
 * holding each, for the query words' weights (`chunksWith`). Read once from the index's fts5vocab
 * table, the most frequent terms first until the trie's budget is reached (past it, a term and its
 * count are read from that table when asked for: matched as typed, not through typos or prefixes).
 * Then patched with each write's terms rather than read again: at 10k chunks (a 40k-word
 * vocabulary), reading every term (65 ms: fts5vocab counts a term's chunks by reading its posting
 * list) and building the trie again took about 250 ms of the event loop, and every search after a
 * write paid it.
 */
export class KnowledgeTerms {
  readonly vocabulary: Vocabulary
  /** When the terms were read (Date.now()). */
  readonly readAt = Date.now()
  /** Chunks holding each term in the trie. */
  readonly #counts = new Map<string, number>()
  readonly #countOf: Statement

  /** `all` reads `term, doc` most frequent first; `one` reads the `doc` of one term. */
  constructor (all: Statement, one: Statement) {
    this.#countOf = one
    this.vocabulary = new Vocabulary([], VOCABULARY_MAX_NODES, (term) => this.#countOf.pluck().get(term) !== undefined)
    for (const [term, doc] of all.raw().iterate() as IterableIterator<[string, number]>) {
      if (!this.vocabulary.add(term)) break
      this.#counts.set(term, doc)
    }
  }

  /** Chunks holding `term`: 0 for a term the index does not hold. Bound, to be passed as a function. */
  readonly chunksWith = (term: string): number =>
    this.#counts.get(term) ?? (this.vocabulary.full ? (this.#countOf.pluck().get(term) as number | undefined) ?? 0 : 0)

  /**
   * Applies a committed write: `delta` is, for each term of the chunks it inserted or deleted, the
   * chunks holding it inserted minus deleted. A term no chunk holds any more leaves the trie; a new
   * one enters it while it fits (then, like any term past the budget, it is read when asked for).
   * False when the trie is past its budget: the counts hold, but the trie is not the one reading the
   * terms again would give (the most frequent that fit).
   */
  patch (delta: Map<string, number>): boolean {
    for (const [term, change] of delta) {
      if (change === 0) continue
      const count = this.#counts.get(term)
      if (count !== undefined) {
        if (count + change > 0) {
          this.#counts.set(term, count + change)
        } else {
          this.#counts.delete(term)
          this.vocabulary.remove(term)
        }
      } else if (change > 0 && !this.vocabulary.full && this.vocabulary.add(term)) {
        this.#counts.set(term, change)
      }
    }
    return !this.vocabulary.full
  }
}
