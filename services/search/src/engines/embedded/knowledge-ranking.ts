/**
 * How the embedded engine ranks knowledge chunks, in one place. Knowledge is searched with questions
 * ("how long does shipping take?"), whose little words a help page rarely repeats: unlike the
 * catalog, a chunk need not match every word. Candidates are the chunks matching any query word (the
 * best by bm25) and, in hybrid search, the chunks nearest to the query's embedding; each gets
 * - a keyword score: the share of the query's informative words it contains, each word weighted by
 *   its inverse document frequency (a word found in few chunks says more), a word matched with typos
 *   counting 0.1 less per typo; words that no chunk contains, even with typos, are left out (they
 *   cannot tell chunks apart);
 * - a semantic score: the cosine similarity of its embedding with the query's (negative as 0);
 * and is ranked by their mix, `semanticRatio` × semantic + (1 − `semanticRatio`) × keyword, which is
 * also the score the API shows; ties keep the bm25 order.
 */
import { allowedTypos, tokenize } from '../../text.js'
import { ftsString } from './fts.js'
import type { Vocabulary } from './typo.js'

/** Candidates taken from each side before the mix ranks them. */
export const CANDIDATES = 200
/** bm25 weights of the fts columns (title, section, text): a heading says what its chunk is about. */
export const COLUMN_WEIGHTS = [2, 3, 1] as const
/** Terms one query word may stand for (itself and its typo variants). */
const MAX_VARIANTS = 40

interface QueryWord {
  word: string
  /** Indexed terms within the word's allowed typos, with their distance (0: the word itself). */
  variants: Map<string, number>
  /** The last word also matches as a prefix (from two letters). */
  prefix: boolean
}

export interface KnowledgePlan {
  words: QueryWord[]
  /** The FTS5 expression matching any variant of any word. */
  match: string
}

/** Undefined when the query has no word. */
export function planKnowledgeQuery (query: string, vocabulary: Vocabulary): KnowledgePlan | undefined {
  const tokens = [...new Set(tokenize(query))]
  if (tokens.length === 0) return undefined
  const words = tokens.map((word, i): QueryWord => {
    const variants = new Map<string, number>([[word, 0]])
    const typos = allowedTypos(word)
    const fuzzy = typos === 0 ? [] : vocabulary.fuzzy(word, typos).sort((a, b) => a.distance - b.distance)
    for (const match of fuzzy.slice(0, MAX_VARIANTS)) if (!variants.has(match.term)) variants.set(match.term, match.distance)
    return { word, variants, prefix: i === tokens.length - 1 && [...word].length >= 2 }
  })
  const match = words.flatMap((w) => [...w.variants.keys()].map((term) => w.prefix && term === w.word ? `${ftsString(term)} *` : ftsString(term))).join(' OR ')
  return { words, match }
}

/**
 * A chunk's words as its keyword score reads them: its title, section and text tokenized, each word
 * once, in code-unit order, so that a word, or a word starting with a prefix, is found by a binary
 * search (all the words starting with a prefix follow each other, from the first not below it).
 */
export type ChunkWords = readonly string[]

export function chunkWords (text: string): ChunkWords {
  return [...new Set(tokenize(text))].sort()
}

/** The place of the first of `words` not below `target` (`words.length` when none). */
function firstNotBelow (words: ChunkWords, target: string): number {
  let low = 0
  let high = words.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (words[middle]! < target) low = middle + 1
    else high = middle
  }
  return low
}

const holds = (words: ChunkWords, term: string) => words[firstNotBelow(words, term)] === term
const holdsPrefix = (words: ChunkWords, prefix: string) => words[firstNotBelow(words, prefix)]?.startsWith(prefix) === true

/** How well a chunk's words match a query word: 1 exactly (or as a prefix), 0.1 less per typo, 0 not at all. */
function wordMatch (word: QueryWord, words: ChunkWords): number {
  let best = 0
  for (const [term, distance] of word.variants) if (holds(words, term)) best = Math.max(best, 1 - 0.1 * distance)
  if (best < 1 && word.prefix && holdsPrefix(words, word.word)) return 1
  return best
}

/** Terms looked at to count the chunks a last word matches as a prefix. */
export const PREFIX_TERMS = 20

/**
 * Weights of the query words: bm25's inverse document frequency, from the number of chunks holding
 * the word's most frequent variant (or, for the last word, term it starts); 0 for a word no chunk holds.
 */
export function wordWeights (plan: KnowledgePlan, chunksWithTerm: (term: string) => number, chunks: number, termsWithPrefix: (prefix: string) => string[]): number[] {
  return plan.words.map((w) => {
    const terms = [...w.variants.keys(), ...(w.prefix ? termsWithPrefix(w.word) : [])]
    const n = Math.max(0, ...terms.map(chunksWithTerm))
    return n === 0 ? 0 : Math.log(1 + (chunks - n + 0.5) / (n + 0.5))
  })
}

/**
 * The keyword score of a chunk, given the text of its title, section and text, or its words
 * (chunkWords: the engine keeps them between searches).
 */
export function keywordScore (plan: KnowledgePlan, weights: number[], chunk: string | ChunkWords): number {
  const total = weights.reduce((a, b) => a + b, 0)
  if (total === 0) return 0
  const words = typeof chunk === 'string' ? chunkWords(chunk) : chunk
  let matched = 0
  plan.words.forEach((w, i) => { matched += weights[i]! * wordMatch(w, words) })
  return matched / total
}

/**
 * Cosine similarity of `query` with each vector of `data` (vectors of the query's size end to end),
 * in order: a dot product, as the stored vectors are unit length like the query's. One loop over the
 * matrix: a function called per vector made the scan of 10k chunks about a third slower.
 */
export function similaritiesTo (query: Float32Array, data: Float32Array): Float64Array {
  const dimensions = query.length
  const out = new Float64Array(dimensions === 0 ? 0 : data.length / dimensions)
  for (let i = 0, at = 0; i < out.length; i++, at += dimensions) {
    let dot = 0
    for (let d = 0; d < dimensions; d++) dot += query[d]! * data[at + d]!
    out[i] = dot
  }
  return out
}

export interface Candidate {
  rowid: number
  /** Position in the bm25 order (Infinity when found by meaning only). */
  bm25Rank: number
  keyword: number
  semantic: number
}

const rounded = (x: number) => Math.round(x * 10_000) / 10_000

/** The candidates ranked by their mix (see the top of this file), best first, with their scores; those scoring 0 are dropped. */
export function rankCandidates (candidates: Candidate[], semanticRatio: number, limit: number): Array<{ rowid: number, score: number }> {
  return candidates
    .map((c) => ({ c, score: rounded(semanticRatio * Math.max(0, c.semantic) + (1 - semanticRatio) * c.keyword) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.c.bm25Rank - b.c.bm25Rank || a.c.rowid - b.c.rowid)
    .slice(0, limit)
    .map(({ c, score }) => ({ rowid: c.rowid, score: Math.min(1, score) }))
}
