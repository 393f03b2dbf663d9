import { LRUCache } from 'lru-cache'
import { allowedTypos, tokenize } from '../../text.js'
import { ftsString } from './fts.js'
import type { Vocabulary } from './typo.js'

/** Candidate terms per query word, so one word never expands into an unbounded OR. */
const MAX_CANDIDATES = 40
/** Words whose expansions are kept per vocabulary: walking the trie is most of a short query's cost. */
const CACHED_WORDS = 2000

/**
 * The FTS5 match expressions of a query, one per typo tier: tier t accepts, for every word, the
 * terms within t typos of it (the last word also as a prefix). Documents matching tier 0 rank before
 * those that need tier 1, and so on — Meilisearch's "typo" ranking rule.
 */
export interface KeywordPlan {
  tiers: string[]
}

const expansions = new WeakMap<Vocabulary, { version: number, cache: LRUCache<string, string[][]> }>()

/** wordAlternatives, remembered per vocabulary until a term is added to it. */
function cachedAlternatives (word: string, isLast: boolean, vocabulary: Vocabulary, maxTier: number): string[][] {
  let entry = expansions.get(vocabulary)
  if (entry === undefined || entry.version !== vocabulary.version) {
    entry = { version: vocabulary.version, cache: new LRUCache({ max: CACHED_WORDS }) }
    expansions.set(vocabulary, entry)
  }
  const key = `${maxTier}${isLast ? '*' : ' '}${word}`
  let alternatives = entry.cache.get(key)
  if (alternatives === undefined) {
    alternatives = wordAlternatives(word, isLast, vocabulary, maxTier)
    entry.cache.set(key, alternatives)
  }
  return alternatives
}

function wordAlternatives (word: string, isLast: boolean, vocabulary: Vocabulary, maxTier: number): string[][] {
  const byTier: string[][] = Array.from({ length: maxTier + 1 }, () => [])
  const typos = allowedTypos(word)
  for (const match of typos === 0 ? [] : vocabulary.fuzzy(word, typos)) {
    if (match.distance > 0) byTier[Math.min(match.distance, maxTier)]!.push(ftsString(match.term))
  }
  // A one-letter prefix would match a large part of the vocabulary: only whole words then.
  byTier[0]!.push(isLast && [...word].length >= 2 ? `${ftsString(word)} *` : ftsString(word))
  return byTier.map((terms) => terms.slice(0, MAX_CANDIDATES))
}

/** Undefined when the query has no word to match (browse). */
export function planKeyword (query: string, vocabulary: Vocabulary): KeywordPlan | undefined {
  const words = tokenize(query)
  if (words.length === 0) return undefined
  const maxTier = Math.max(...words.map(allowedTypos))
  const alternatives = words.map((word, i) => cachedAlternatives(word, i === words.length - 1, vocabulary, maxTier))
  const tiers: string[] = []
  for (let tier = 0; tier <= maxTier; tier++) {
    const expr = alternatives
      .map((byTier) => `(${byTier.slice(0, tier + 1).flat().join(' OR ')})`)
      .join(' AND ')
    if (tiers.at(-1) !== expr) tiers.push(expr)
  }
  return { tiers }
}
