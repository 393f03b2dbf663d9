/**
 * The Meilisearch adapter's ranking rules, in one place: which words must match, the rules of the
 * suggestions index, and how Meilisearch's ranking score becomes the port's score. The catalog keeps
 * Meilisearch's default ranking rules and typo tolerance (the embedded engine imitates those), and
 * sends each search's own matching strategy (see searchParams).
 */
import type { MatchingStrategies, SearchParams } from 'meilisearch'

/** The one embedder of an index: vectors come from our embedder (`userProvided`). */
export const EMBEDDER = 'default'

/** Suggestions: every word of the typed term must match, as in the embedded engine. */
export const SUGGESTION_MATCHING: MatchingStrategies = 'all'

/**
 * Knowledge searches: questions hold little words a help page does not repeat, so a chunk may match
 * without the most frequent query words (the embedded engine weighs words by their rarity likewise).
 */
export const KNOWLEDGE_MATCHING: MatchingStrategies = 'frequency'

/**
 * The suggestions index (see suggestions.ts): exact matches before typo matches, then the most
 * popular first; Meilisearch's remaining rules break ties, and the adapter orders those itself.
 */
export const SUGGESTION_RANKING_RULES = ['words', 'typo', 'weight:desc', 'proximity', 'attribute', 'exactness']

/** The semantic side of a hybrid search, when it has weight: a ratio of 0 is the keyword search as is. */
export function hybridParams (hybrid: { semanticRatio: number, vector: Float32Array } | undefined): Pick<SearchParams, 'hybrid' | 'vector'> {
  if (hybrid === undefined || hybrid.semanticRatio <= 0) return {}
  return { hybrid: { embedder: EMBEDDER, semanticRatio: hybrid.semanticRatio }, vector: Array.from(hybrid.vector) }
}

/** Meilisearch's ranking score as the port's score: in [0, 1], to four decimals. */
export const portScore = (rankingScore: number | undefined) => Math.min(1, Math.max(0, Math.round((rankingScore ?? 0) * 10_000) / 10_000))
