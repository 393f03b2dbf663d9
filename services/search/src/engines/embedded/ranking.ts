/**
 * The catalog index's ranking rules, in the order they apply (the knowledge index keeps its own in
 * knowledge-ranking.ts):
 * 1. typo: documents matching with fewer typos first (the keyword plan's tiers, see keyword.ts);
 * 2. attribute and relevance: bm25 with the earlier searchable attributes weighing more;
 * 3. ties by rowid (the order documents were added).
 * Hybrid search merges the keyword and semantic orders by reciprocal rank, each side weighted by the
 * semantic ratio; ranking scores follow the same rules (see keywordScore, hybridScore).
 */

/** Reciprocal-rank constant: damps the difference between neighbouring ranks. */
export const RRF_K = 60

/** bm25 weights per searchable attribute: earlier attributes weigh more ("attribute" rule). */
export function columnWeights (columns: number): number[] {
  return Array.from({ length: Math.max(columns, 1) }, (_, i) => Math.max(1, 10 - 3 * i))
}

/**
 * The typo tier of a match in a keyword search with `tiers` tiers, as SQL over `rowid`: tier i < last
 * holds what "beyond tier i" does not match (see KeywordPlan), one placeholder each. A keyword search
 * orders by it, then by `score` (its bm25), then by rowid.
 */
export function keywordTier (tiers: number): string {
  if (tiers <= 1) return '0'
  const cases = Array.from({ length: tiers - 1 }, (_, i) => `WHEN rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?) THEN ${i}`)
  return `CASE ${cases.join(' ')} ELSE ${tiers - 1} END`
}

/** The ORDER BY of a keyword search over matches with `rowid` and `score` (a bare 0 there would name a column). */
export const keywordOrder = (tiers: number) => tiers <= 1 ? 'score, rowid' : `${keywordTier(tiers)}, score, rowid`

/** The bm25 expression with the column weights of `columns` searchable attributes. */
export const bm25 = (columns: number) => `bm25(fts, ${columnWeights(columns).join(', ')})`

/**
 * Keyword and semantic rankings merged by reciprocal rank, each side weighted by the semantic
 * ratio: 1 gives the semantic order alone. Ties by rowid.
 */
export function mergeByRank (keyword: number[], semantic: number[], ratio: number): number[] {
  const scores = new Map<number, number>()
  const add = (rowids: number[], weight: number) => rowids.forEach((rowid, rank) => {
    scores.set(rowid, (scores.get(rowid) ?? 0) + weight / (RRF_K + rank))
  })
  add(keyword, 1 - ratio)
  add(semantic, ratio)
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([rowid]) => rowid)
}

/** Keyword side of a ranking score: 1 for a match without typos, 0.1 less per typo tier. */
export const keywordScore = (tier: number) => Math.max(0, 1 - 0.1 * tier)

const rounded = (x: number) => Math.round(x * 10_000) / 10_000

/**
 * A ranking score in [0, 1]: the keyword score (0 for no keyword match) and, in a hybrid search,
 * the cosine similarity (negative as 0), weighted by the semantic ratio.
 */
export function rankingScore (keyword: number | undefined, semantic: number | undefined, ratio: number | undefined): number {
  if (ratio === undefined) return rounded(keyword ?? 0)
  return rounded(ratio * Math.max(0, semantic ?? 0) + (1 - ratio) * (keyword ?? 0))
}
