/**
 * The catalog index's ranking rules, in the order they apply (the knowledge index keeps its own in
 * knowledge-ranking.ts):
 * 1. words: documents matching more query words first, as the matching strategy drops them (levels,
 *    see wordLevels; a level's documents are those matching its words and not the level before's);
 *    the catalog's stop words are not query words, and a word found through one of its synonyms
 *    counts as matched (engine/query-terms.ts);
 * 2. typo: documents matching with fewer typos first (the keyword plan's tiers, see keyword.ts);
 * 3. sort: the search's `sort` criteria, when it has some (see sortRanks);
 * 4. attribute and relevance: bm25 with the earlier searchable attributes weighing more (see
 *    columnWeights);
 * 5. ties by rowid (the order documents were added).
 * Meilisearch puts its sort rule after words, typo, proximity and attribute. Here proximity and
 * attribute are folded into bm25, a score that two documents almost never share: after it, a sort
 * would never show. So sort comes right after the rules that sort documents into groups (words,
 * typo), where Meilisearch's first version of the rule put it. A browse (no query word) has no words
 * or typo groups: the sort orders every document.
 * Hybrid search merges the keyword and semantic orders by reciprocal rank (each side read as deep as
 * hybridDepth), each side weighted by the semantic ratio and a keyword match of fewer words less (see
 * levelWeight). The sort orders the keyword side (whose ranks the merge reads), not the semantic side
 * nor the merge: a hybrid result does not follow the sort, as in Meilisearch, which merges by ranking
 * scores. Ranking scores follow the rules above but not the sort, which, as in Meilisearch, says
 * nothing about relevance (see keywordScore, rankingScore).
 */
import { limits, type MatchingStrategy } from '@chatsearch/contracts'

/**
 * The words rule: the query words (by position) each level matches, every word first, then fewer as
 * the strategy drops them, as Meilisearch's matching strategies do:
 * - all: every word, one level;
 * - last: the last word first, then the one before it, and so on; the first word is never dropped;
 * - frequency: the words in the most documents (`frequencies`) first, a word in none before any,
 *   words in as many documents together; the rarest are never dropped.
 */
export function wordLevels (count: number, strategy: MatchingStrategy, frequencies: number[]): number[][] {
  const every = Array.from({ length: count }, (_, i) => i)
  let drops: number[][]
  if (strategy === 'last') drops = every.slice(1).reverse().map((i) => [i])
  else if (strategy === 'frequency') {
    const often = frequencies.map((n) => n === 0 ? Infinity : n)
    drops = [...new Set(often)].sort((a, b) => b - a).slice(0, -1).map((n) => every.filter((i) => often[i] === n))
  } else drops = []
  const levels = [every]
  for (const dropped of drops) levels.push(levels.at(-1)!.filter((i) => !dropped.includes(i)))
  return levels
}

/** Reciprocal-rank constant: damps the difference between neighbouring ranks. */
export const RRF_K = 60

/** bm25 weights per searchable attribute: earlier attributes weigh more ("attribute" rule). */
export function columnWeights (columns: number): number[] {
  return Array.from({ length: Math.max(columns, 1) }, (_, i) => Math.max(1, 10 - 3 * i))
}

/**
 * The typo tier of a match in a keyword search with `tiers` tiers, as SQL over `rowid`: tier i < last
 * holds what "beyond tier i" does not match (see KeywordPlan), one placeholder each. A keyword search
 * orders by it, then by its sort keys (see sortKeys), then by `score` (its bm25), then by rowid.
 */
export function keywordTier (tiers: number): string {
  if (tiers <= 1) return '0'
  const cases = Array.from({ length: tiers - 1 }, (_, i) => `WHEN rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?) THEN ${i}`)
  return `CASE ${cases.join(' ')} ELSE ${tiers - 1} END`
}

/** The sort keys of a keyword search, as SQL over `rowid`: sort_rank(rowid, i) answers from the i-th criterion's ranks. */
export const sortKeys = (criteria: number) => Array.from({ length: criteria }, (_, i) => `sort_rank(rowid, ${i})`)

/**
 * The ORDER BY of a keyword search over matches with `rowid` and `score`, sorted by `criteria` sort
 * criteria (see sortKeys); a single tier adds no key (a bare 0 there would name a column).
 */
export const keywordOrder = (tiers: number, criteria = 0) => [...(tiers <= 1 ? [] : [keywordTier(tiers)]), ...sortKeys(criteria), 'score', 'rowid'].join(', ')

/** Where a document without a value to sort by goes, whichever the order: after every one with a value. */
export const UNSORTED = 2 ** 31 - 1

/**
 * The values of one attribute, as the sort rule reads them: its numbers in ascending order with the
 * document of each, and its strings and booleans (normalised: lower-cased) with their documents.
 */
export interface SortValues {
  numbers: Float64Array
  numberDocs: Int32Array
  text: Map<string, Int32Array>
}

/** Strings in the order of their UTF-8 bytes, as Meilisearch sorts them ("é" after "z"). */
function byteOrder (strings: string[]): string[] {
  return strings.map((s) => [Buffer.from(s, 'utf8'), s] as const).sort((a, b) => Buffer.compare(a[0], b[0])).map(([, s]) => s)
}

/**
 * The sort rule for one criterion, as Meilisearch's: each document's place in the order (lower
 * first; documents with equal values share one), for rowids below `size`. The numbers come first,
 * then the strings, in the asked direction both; a document holding several values (an array, or
 * numbers and strings) takes the place of the first one met, so its smallest number ascending, its
 * largest descending. Documents with no number or string (absent, null, empty) are UNSORTED.
 */
export function sortRanks (values: SortValues, size: number, descending: boolean): Int32Array {
  const ranks = new Int32Array(size).fill(UNSORTED)
  let rank = 0
  const place = (doc: number) => { if (doc < size && ranks[doc] === UNSORTED) ranks[doc] = rank }
  const { numbers, numberDocs } = values
  for (let k = 0; k < numbers.length; k++) {
    const i = descending ? numbers.length - 1 - k : k
    const previous = descending ? i + 1 : i - 1
    if (k > 0 && numbers[i] !== numbers[previous]) rank++
    place(numberDocs[i]!)
  }
  if (numbers.length > 0) rank++
  const strings = byteOrder([...values.text.keys()])
  if (descending) strings.reverse()
  for (const s of strings) {
    for (const doc of values.text.get(s)!) place(doc)
    rank++
  }
  return ranks
}

/** A browse's order: by each criterion's ranks in turn, then by rowid. */
export function bySortRanks (ranks: Int32Array[]): (a: number, b: number) => number {
  return (a, b) => {
    for (const r of ranks) {
      const d = (r[a] ?? UNSORTED) - (r[b] ?? UNSORTED)
      if (d !== 0) return d
    }
    return a - b
  }
}

/** The bm25 expression with the column weights of `columns` searchable attributes. */
export const bm25 = (columns: number) => `bm25(fts, ${columnWeights(columns).join(', ')})`

/**
 * Keyword and semantic rankings merged by reciprocal rank, each side weighted by the semantic
 * ratio (1 gives the semantic order alone), a keyword match also by `keywordWeight` of its rank
 * (see levelWeight). Ties by rowid.
 */
export function mergeByRank (keyword: number[], semantic: number[], ratio: number, keywordWeight: (rank: number) => number = () => 1): number[] {
  const scores = new Map<number, number>()
  const add = (rowids: number[], weight: (rank: number) => number) => rowids.forEach((rowid, rank) => {
    scores.set(rowid, (scores.get(rowid) ?? 0) + weight(rank) / (RRF_K + rank))
  })
  add(keyword, (rank) => (1 - ratio) * keywordWeight(rank))
  add(semantic, () => ratio)
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([rowid]) => rowid)
}

/** Ranks read from each side of a hybrid search at most (see hybridDepth). */
const HYBRID_DEPTH_MAX = 1000
/** Ranks read past the end of the page on each side (see hybridDepth). */
const HYBRID_DEPTH_MARGIN = 20

/**
 * How many documents each side of a hybrid search ranks for the merge, for a page ending at `end`
 * (offset + limit): as many, capped at HYBRID_DEPTH_MAX (the keyword page and the nearest-neighbour
 * search cost more the deeper they read), and HYBRID_DEPTH_MARGIN more, since a document just past
 * the page on both sides can outscore one inside it on one side only. Past what those ranks merge
 * into, the remaining keyword matches follow in keyword order (their ranking scores still fall), so a
 * deep page is never empty while the total counts more.
 */
export const hybridDepth = (end: number) => Math.min(end, HYBRID_DEPTH_MAX) + HYBRID_DEPTH_MARGIN

/**
 * The items closest in meaning that a hybrid search's facets count beside its keyword matches: as
 * many as the semantic side reads for a first page of the default limit, whatever page was asked, so
 * that the facets (and POST /facet-search's counts) do not change as a shopper pages.
 */
export const HYBRID_FACET_DEPTH = hybridDepth(limits.searchLimitDefault)

/**
 * How much a keyword match at `level` of `levels` of the words rule counts in a hybrid merge: one of
 * every word fully, one of fewer words as its keyword score without typos (see keywordScore). By
 * its rank alone, "Acme kettle", found by "acme" for "acme multi-cooker", would weigh as much as a
 * second Acme multi-cooker, and pass the multi-cookers of other brands the semantic side finds
 * (nDCG@10 of the judged set at ratio 0.7: 0.735 by rank alone, 0.755 weighed so).
 */
export const levelWeight = (level: number, levels: number) => level === 0 ? 1 : keywordScore(0, level, levels)

/**
 * Keyword side of a ranking score, for a match at `level` of `levels` of the words rule: a match of
 * every word scores 1 without typos, 0.1 less per typo tier (at least 0.8: tiers stop at 2 typos);
 * one of fewer words scores below every match of them all, less per level, each level's typo tiers
 * in its own band: 0.8 × (levels − level − 1 + the typo score) / levels.
 */
export function keywordScore (tier: number, level = 0, levels = 1): number {
  const typo = Math.max(0, 1 - 0.1 * tier)
  return level === 0 ? typo : 0.8 * (levels - level - 1 + typo) / levels
}

const rounded = (x: number) => Math.round(x * 10_000) / 10_000

/**
 * A ranking score in [0, 1]: the keyword score (0 for no keyword match) and, in a hybrid search,
 * the cosine similarity (negative as 0), weighted by the semantic ratio.
 */
export function rankingScore (keyword: number | undefined, semantic: number | undefined, ratio: number | undefined): number {
  if (ratio === undefined) return rounded(keyword ?? 0)
  return rounded(ratio * Math.max(0, semantic ?? 0) + (1 - ratio) * (keyword ?? 0))
}
