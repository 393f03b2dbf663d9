import { LRUCache } from 'lru-cache'
import type { MatchingStrategy } from '@chatsearch/contracts'
import { allowedTypos, isPrefixWord, queryWords, type QueryWord } from '../../text.js'
import { ftsString } from './fts.js'
import { wordLevels } from './ranking.js'
import type { Vocabulary } from './typo.js'

/** Candidate terms per query word, so one word never expands into an unbounded OR. */
const MAX_CANDIDATES = 40
/** Words whose expansions are kept per vocabulary: walking the trie is most of a short query's cost. */
const CACHED_WORDS = 2000
/**
 * The FTS5 match expressions of a set of query words (all of them, or those a level of the words
 * rule keeps), one per typo tier: tier t accepts, for every word, the terms within t typos of it
 * (the query's last word also as a prefix). Documents matching tier 0 rank before those that need
 * tier 1, and so on — Meilisearch's "typo" ranking rule.
 *
 * `first` is the first tier that can match anything: a tier before it needs a word as typed that the
 * vocabulary does not hold (a misspelt word, as typed, is in no document). Ranking by those tiers
 * would run their MATCH for nothing, so searches skip them; a tier keeps its number (the ranking
 * score counts it).
 *
 * `beyond[t]` (t before the last tier) matches the documents of the last tier that tier t does not
 * hold: those in which some word is found only through terms beyond tier t. Each word contributes
 * "(its terms beyond tier t) NOT (its terms up to tier t)". Ranking asks it instead of tiers[t]
 * because its terms are typo variants, mostly rare, while tiers[t] reads every word's doclists,
 * the last word's prefix included.
 */
export interface KeywordPlan {
  tiers: string[]
  first: number
  beyond: string[]
}

/** A word's candidate terms by tier, and whether the vocabulary holds the word as typed (or, as a prefix, a term starting with it). */
interface Alternatives {
  byTier: string[][]
  typed: boolean
}

const expansions = new WeakMap<Vocabulary, { version: number, cache: LRUCache<string, Alternatives> }>()

/** wordAlternatives, remembered per vocabulary until a term is added to it. */
function cachedAlternatives (word: string, isLast: boolean, vocabulary: Vocabulary, maxTier: number): Alternatives {
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

function wordAlternatives (word: string, isLast: boolean, vocabulary: Vocabulary, maxTier: number): Alternatives {
  const byTier: string[][] = Array.from({ length: maxTier + 1 }, () => [])
  const typos = allowedTypos(word)
  // A one-letter prefix would match a large part of the vocabulary: only whole words then.
  const prefix = isPrefixWord({ word, isLast })
  byTier[0]!.push(prefix ? `${ftsString(word)} *` : ftsString(word))
  for (const match of typos === 0 ? [] : vocabulary.fuzzy(word, typos)) {
    if (match.distance === 0) continue
    // A term the prefix already matches ("jackets" for "jacket *") is no typo: it stays in the query,
    // where bm25 counts it as before, but in tier 0, so it adds no tier to rank by.
    byTier[prefix && match.term.startsWith(word) ? 0 : Math.min(match.distance, maxTier)]!.push(ftsString(match.term))
  }
  const typed = prefix ? vocabulary.withPrefix(word, 1).length > 0 : vocabulary.has(word)
  return { byTier: byTier.map((terms) => terms.slice(0, MAX_CANDIDATES)), typed }
}

/** The plan matching every word of the query; undefined when it has no word to match (browse). */
export function planKeyword (query: string, vocabulary: Vocabulary): KeywordPlan | undefined {
  const words = queryWords(query)
  return words.length === 0 ? undefined : planWords(words, vocabulary)
}

/**
 * The plans of a search, one per level of the words ranking rule (see wordLevels): the first
 * matches every word, each next one the words the matching strategy keeps after dropping more.
 * `documentsWith` counts the documents an FTS5 expression matches, for the frequency strategy.
 * Undefined when the query has no word to match (browse).
 */
export function planLevels (query: string, vocabulary: Vocabulary, strategy: MatchingStrategy, documentsWith: (match: string) => number): KeywordPlan[] | undefined {
  const words = queryWords(query)
  if (words.length === 0) return undefined
  // A word's documents are those of any of its terms, typos and prefix included, as Meilisearch counts them.
  const frequencies = strategy === 'frequency' && words.length > 1 ? words.map((word) => documentsWith(planWords([word], vocabulary).tiers.at(-1)!)) : []
  return wordLevels(words.length, strategy, frequencies).map((kept) => planWords(kept.map((i) => words[i]!), vocabulary))
}

function planWords (words: QueryWord[], vocabulary: Vocabulary): KeywordPlan {
  const maxTier = Math.max(...words.map(({ word }) => allowedTypos(word)))
  const alternatives = words.map(({ word, isLast }) => cachedAlternatives(word, isLast, vocabulary, maxTier))
  const tiers: string[] = []
  /** Per kept tier, each word's terms up to it. */
  const terms: string[][][] = []
  let first: number | undefined
  for (let tier = 0; tier <= maxTier; tier++) {
    const upTo = alternatives.map(({ byTier }) => byTier.slice(0, tier + 1).flat())
    const expr = upTo.map((wordTerms) => `(${wordTerms.join(' OR ')})`).join(' AND ')
    if (tiers.at(-1) !== expr) {
      tiers.push(expr)
      terms.push(upTo)
    }
    // Tier `tier` can match when every word has a term in it: as typed, or a typo away (those come from the vocabulary).
    if (first === undefined && alternatives.every(({ byTier, typed }) => typed || byTier.slice(1, tier + 1).some((terms) => terms.length > 0))) {
      first = tiers.length - 1
    }
  }
  const widest = terms.at(-1)!
  const beyond = terms.slice(0, -1).map((upTo) => upTo.flatMap((wordTerms, w) => {
    const extra = widest[w]!.slice(wordTerms.length)
    return extra.length === 0 ? [] : [`((${extra.join(' OR ')}) NOT (${wordTerms.join(' OR ')}))`]
  }).join(' OR '))
  // When no tier can match, the widest still runs: the vocabulary answers for terms, the MATCH for documents.
  return { tiers, first: first ?? tiers.length - 1, beyond }
}
