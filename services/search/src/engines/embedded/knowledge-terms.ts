import { setImmediate as turn } from 'node:timers/promises'
import type { Statement } from './database.js'
import { VOCABULARY_MAX_NODES, Vocabulary } from './typo.js'

/** Terms put in the trie between two turns of the event loop by `readBetweenTurns` (about 5 ms). */
const TERMS_PER_TURN = 2000

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

  /** `one` reads the `doc` of one term; `maxNodes` is the trie's budget. */
  private constructor (one: Statement, maxNodes: number) {
    this.#countOf = one
    this.vocabulary = new Vocabulary([], maxNodes, (term) => this.#countOf.pluck().get(term) !== undefined)
  }

  /** The terms `all` reads (`term, doc`, most frequent first), in one go. */
  static read (all: Statement, one: Statement, maxNodes = VOCABULARY_MAX_NODES): KnowledgeTerms {
    const terms = new KnowledgeTerms(one, maxNodes)
    for (const [term, doc] of all.raw().iterate() as IterableIterator<[string, number]>) if (!terms.#add(term, doc)) break
    return terms
  }

  /**
   * The same terms, put in the trie a slice at a time between turns of the event loop, so that
   * other requests are served meanwhile: at a 40k-word vocabulary the trie takes about 90 ms to
   * build, at a million words (its budget) 300-700 ms. Reading the rows stays one step (SQLite sorts
   * them all to answer the first; an iterator cannot stay open across turns, as the connection
   * serves other statements meanwhile); no more rows are read than one past the trie's nodes, as
   * each term takes one at least. The writes committed after the rows were read are for the caller
   * to apply (patch), in the same step as it puts these terms to use: a write between the two would
   * otherwise be in neither.
   */
  static async readBetweenTurns (all: Statement, one: Statement, maxNodes = VOCABULARY_MAX_NODES): Promise<KnowledgeTerms> {
    const rows: Array<[string, number]> = []
    for (const row of all.raw().iterate() as IterableIterator<[string, number]>) if (rows.push(row) > maxNodes) break
    const terms = new KnowledgeTerms(one, maxNodes)
    for (let from = 0; from < rows.length; from += TERMS_PER_TURN) {
      await turn()
      if (rows.slice(from, from + TERMS_PER_TURN).some(([term, doc]) => !terms.#add(term, doc))) break
    }
    return terms
  }

  #add (term: string, doc: number): boolean {
    if (!this.vocabulary.add(term)) return false
    this.#counts.set(term, doc)
    return true
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
