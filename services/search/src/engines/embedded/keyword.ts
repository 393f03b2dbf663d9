import { LRUCache } from 'lru-cache'
import type { MatchingStrategy } from '@chatsearch/contracts'
import { allowedTypos, isPrefixWord } from '../../text.js'
import { NO_RULES, queryTerms, type QueryRules, type QueryTerms, type SynonymSpan } from '../../engine/query-terms.js'
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
 * tier 1, and so on — Meilisearch's "typo" ranking rule. A catalog's synonyms (engine/query-terms.ts)
 * add their alternatives to every tier, as typed: to a word's terms, or, for a key of several words,
 * as an alternative to all of those words (see unitsOf).
 *
 * `first` is the first tier that can match anything: a tier before it needs a word as typed that the
 * vocabulary does not hold (a misspelt word, as typed, is in no document). Ranking by those tiers
 * would run their MATCH for nothing, so searches skip them; a tier keeps its number (the ranking
 * score counts it).
 *
 * `beyond[t]` (t before the last tier) matches the documents of the last tier that tier t does not
 * hold: those in which some word is found only through terms beyond tier t. Each word contributes
 * "(its terms beyond tier t) NOT (its terms up to tier t)", a key of several words "(its words'
 * terms up to the last tier) NOT (the key up to tier t)". Ranking asks it instead of tiers[t]
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
  const typed = vocabulary.has(word) || (prefix && vocabulary.withPrefix(word, 1).length > 0)
  return { byTier: byTier.map((terms) => terms.slice(0, MAX_CANDIDATES)), typed }
}

/** The plan matching every word of the query; undefined when it has no word to match (browse). */
export function planKeyword (query: string, vocabulary: Vocabulary, rules: QueryRules = NO_RULES): KeywordPlan | undefined {
  const terms = queryTerms(query, rules)
  return terms.words.length === 0 ? undefined : planWords(terms, terms.words.map((_, i) => i), vocabulary)
}

/**
 * The plans of a search, one per level of the words ranking rule (see wordLevels): the first
 * matches every word, each next one the words the matching strategy keeps after dropping more.
 * `documentsWith` counts the documents an FTS5 expression matches, for the frequency strategy.
 * `rules` are the catalog's stop words and synonyms (engine/query-terms.ts). Undefined when the
 * query has no word to match (browse).
 */
export function planLevels (query: string, vocabulary: Vocabulary, strategy: MatchingStrategy, documentsWith: (match: string) => number, rules: QueryRules = NO_RULES): KeywordPlan[] | undefined {
  const terms = queryTerms(query, rules)
  const count = terms.words.length
  if (count === 0) return undefined
  // A word's documents are those of any of its terms, typos, prefix and one-word synonyms included,
  // as Meilisearch counts them.
  const frequencies = strategy === 'frequency' && count > 1 ? terms.words.map((_, i) => documentsWith(planWords(terms, [i], vocabulary).tiers.at(-1)!)) : []
  return wordLevels(count, strategy, frequencies).map((kept) => planWords(terms, kept, vocabulary))
}

/** A word's alternatives with its one-word synonyms (`position` is the word's in the query), which are tier 0: no typo. */
function withSynonyms (alternatives: Alternatives, spans: readonly SynonymSpan[], position: number, vocabulary: Vocabulary): Alternatives {
  const span = spans.find(({ first, last }) => first === position && last === position)
  if (span === undefined) return alternatives
  const [exact = [], ...typos] = alternatives.byTier
  return {
    byTier: [[...exact, ...span.alternatives.map(phraseOf)], ...typos],
    typed: alternatives.typed || span.alternatives.some((words) => inVocabulary(words, vocabulary))
  }
}

/** An alternative as an FTS5 string: its words in a row when there are several (a phrase). */
const phraseOf = (words: readonly string[]) => ftsString(words.join(' '))

/**
 * Whether the vocabulary holds every word of an alternative: then it may match as typed. For a
 * phrase it may not (its words may never be neighbours), which only costs the tier's MATCH.
 */
const inVocabulary = (words: readonly string[], vocabulary: Vocabulary) => words.every((word) => vocabulary.has(word))

/**
 * What a plan ANDs: a query word (an index of the plan's words), or the words of a synonym key of
 * several words, each with its terms as a word unit has them, or else any of the key's alternatives.
 */
type Unit = { word: number } | { words: number[], phrases: string[], typed: boolean }

/** The units of the words `kept` (query positions, ascending): a key of several words applies when all its words are kept. */
function unitsOf (kept: readonly number[], spans: readonly SynonymSpan[], vocabulary: Vocabulary): Unit[] {
  const units: Unit[] = []
  for (let k = 0; k < kept.length;) {
    const position = kept[k]!
    const span = spans.find(({ first, last }) => first === position && last > first && kept[k + last - first] === last)
    if (span === undefined) {
      units.push({ word: k++ })
      continue
    }
    const size = span.last - span.first + 1
    units.push({
      words: Array.from({ length: size }, (_, i) => k + i),
      phrases: span.alternatives.map(phraseOf),
      typed: span.alternatives.some((words) => inVocabulary(words, vocabulary))
    })
    k += size
  }
  return units
}

function planWords (query: QueryTerms, kept: readonly number[], vocabulary: Vocabulary): KeywordPlan {
  const words = kept.map((i) => query.words[i]!)
  const maxTier = Math.max(...words.map(({ word }) => allowedTypos(word)))
  const alternatives = words.map(({ word, isLast }, k) => withSynonyms(cachedAlternatives(word, isLast, vocabulary, maxTier), query.synonyms, kept[k]!, vocabulary))
  const units = query.synonyms.length === 0 ? words.map((_, k): Unit => ({ word: k })) : unitsOf(kept, query.synonyms, vocabulary)
  /** A unit's FTS5 expression, given each word's terms up to some tier. */
  const unitExpr = (unit: Unit, upTo: string[][]) => 'word' in unit
    ? `(${upTo[unit.word]!.join(' OR ')})`
    : `((${unit.words.map((k) => `(${upTo[k]!.join(' OR ')})`).join(' AND ')}) OR ${unit.phrases.join(' OR ')})`
  const tiers: string[] = []
  /** Per kept tier, each word's terms up to it. */
  const terms: string[][][] = []
  let first: number | undefined
  for (let tier = 0; tier <= maxTier; tier++) {
    const upTo = alternatives.map(({ byTier }) => byTier.slice(0, tier + 1).flat())
    const expr = units.map((unit) => unitExpr(unit, upTo)).join(' AND ')
    if (tiers.at(-1) !== expr) {
      tiers.push(expr)
      terms.push(upTo)
    }
    // Tier `tier` can match when every word has a term in it: as typed, or a typo away (those come
    // from the vocabulary); a key of several words also when one of its alternatives is typed.
    const reachable = (k: number) => alternatives[k]!.typed || alternatives[k]!.byTier.slice(1, tier + 1).some((typos) => typos.length > 0)
    if (first === undefined && units.every((unit) => 'word' in unit ? reachable(unit.word) : unit.typed || unit.words.every(reachable))) {
      first = tiers.length - 1
    }
  }
  const widest = terms.at(-1)!
  const beyond = terms.slice(0, -1).map((upTo) => units.flatMap((unit) => {
    if ('word' in unit) {
      const wordTerms = upTo[unit.word]!
      const extra = widest[unit.word]!.slice(wordTerms.length)
      return extra.length === 0 ? [] : [`((${extra.join(' OR ')}) NOT (${wordTerms.join(' OR ')}))`]
    }
    // Its words found only through typos beyond this tier, and not through an alternative.
    const now = unitExpr(unit, upTo)
    return now === unitExpr(unit, widest) ? [] : [`((${unit.words.map((k) => `(${widest[k]!.join(' OR ')})`).join(' AND ')}) NOT ${now})`]
  }).join(' OR '))
  // When no tier can match, the widest still runs: the vocabulary answers for terms, the MATCH for documents.
  return { tiers, first: first ?? tiers.length - 1, beyond }
}
