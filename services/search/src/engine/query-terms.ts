/**
 * A catalog's stop words and synonyms (Meilisearch's settings of those names) as a search reads its
 * query with them: the words searched, and the alternatives a word, or a run of words, may be found
 * by instead. The embedded engine matches these (keyword.ts, suggestions.ts) and highlighting marks
 * them (format.ts) on both engines; Meilisearch is sent the settings and applies them itself.
 *
 * As in Meilisearch:
 * - stop words are left out of a query, except its last word (text.ts's queryWords);
 * - synonyms are one-way: a key's alternatives are found for the key, not the key for them;
 * - keys and alternatives are folded as query words are (case, accents, split at anything that is not
 *   a letter or a digit), keys without their stop words, as Meilisearch normalises them;
 * - a key of several words matches those words next to each other in the query (at most
 *   synonymKeyWordsMax: Meilisearch looks synonyms up for runs of one to three words); an alternative
 *   of several words matches as a phrase; an alternative is matched as written, without typos or
 *   prefix, and counts as the word(s) of its key for the words ranking rule.
 * Unlike Meilisearch, stop words stay in the keyword index (they are not taken out of the items'
 * text), so an alternative phrase holding one ("house of cards") still matches as written.
 */
import { limits } from '@chatsearch/contracts'
import type { IndexSettings } from './port.js'
import { queryWords, tokenize, type QueryWord } from '../text.js'

/** One alternative of a synonym key: its words, folded; several are a phrase. */
export type Alternative = readonly string[]

/** What a query is read with: a catalog's stop words and synonyms, folded. */
export interface QueryRules {
  stopWords: ReadonlySet<string>
  /** Alternatives by key, the key's words joined by one space. */
  synonyms: ReadonlyMap<string, readonly Alternative[]>
  /** Words of the longest key (0: no synonyms): how far ahead a query is looked up. */
  longestKey: number
}

/** Words `first` to `last` of a query (indexes of QueryTerms.words) may be matched by any of `alternatives` instead. */
export interface SynonymSpan {
  first: number
  last: number
  alternatives: readonly Alternative[]
}

export interface QueryTerms {
  /** The words searched (text.ts's queryWords, stop words left out). */
  words: QueryWord[]
  /**
   * The synonyms found in them: one span per word that is a key, and the keys of several words, each
   * run of words in one at most (the longest from the left), by `first`.
   */
  synonyms: SynonymSpan[]
}

type WordSettings = Pick<IndexSettings, 'synonyms' | 'stopWords'>

const NO_STOP_WORDS: ReadonlySet<string> = new Set()
const NO_SYNONYMS: ReadonlyMap<string, readonly Alternative[]> = new Map()
/** Settings without stop words or synonyms: queries read as before them, at no cost. */
export const NO_RULES: QueryRules = { stopWords: NO_STOP_WORDS, synonyms: NO_SYNONYMS, longestKey: 0 }

// Compiled once per settings object: an index keeps its settings until they change, and
// Meilisearch's adapter reads them through a copy of a few seconds.
const stopWordSets = new WeakMap<readonly string[], ReadonlySet<string>>()
const synonymRules = new WeakMap<object, QueryRules>()

const isEmpty = (record: object) => {
  for (const key in record) if (Object.hasOwn(record, key)) return false
  return true
}

/** A catalog's query rules; NO_RULES when it has neither stop words nor synonyms. */
export function queryRules ({ synonyms, stopWords }: WordSettings): QueryRules {
  const stop = stopWordSet(stopWords ?? [])
  if (synonyms === undefined || isEmpty(synonyms)) return stop.size === 0 ? NO_RULES : { ...NO_RULES, stopWords: stop }
  const known = synonymRules.get(synonyms)
  // The keys depend on the stop words (left out of them): compiled again when those change.
  if (known !== undefined && known.stopWords === stop) return known
  const rules = { stopWords: stop, ...synonymMap(synonyms, stop) }
  synonymRules.set(synonyms, rules)
  return rules
}

function stopWordSet (stopWords: readonly string[]): ReadonlySet<string> {
  if (stopWords.length === 0) return NO_STOP_WORDS
  let set = stopWordSets.get(stopWords)
  if (set === undefined) {
    // A stop word of no word or of several matches no query word (PUT /settings refuses them).
    set = new Set(stopWords.map(tokenize).filter((words) => words.length === 1).map((words) => words[0]!))
    stopWordSets.set(stopWords, set)
  }
  return set
}

/** A key's words as a query's are looked up: folded, stop words left out. */
const keyWords = (key: string, stopWords: ReadonlySet<string>) => tokenize(key).filter((word) => !stopWords.has(word))

/**
 * The synonyms folded: keys that fold alike ("Phone", "phone") share their alternatives, an
 * alternative that is its key or repeats another is left out, and a key keeps at most
 * synonymAlternativesMax (Meilisearch derives no more from a word either).
 */
function synonymMap (synonyms: Readonly<Record<string, readonly string[]>>, stopWords: ReadonlySet<string>): Omit<QueryRules, 'stopWords'> {
  const map = new Map<string, Alternative[]>()
  const seen = new Map<string, Set<string>>()
  let longestKey = 0
  for (const [key, values] of Object.entries(synonyms)) {
    const words = keyWords(key, stopWords)
    if (words.length === 0 || words.length > limits.synonymKeyWordsMax) continue
    const joined = words.join(' ')
    const alternatives = map.get(joined) ?? []
    const texts = seen.get(joined) ?? new Set([joined])
    for (const value of values) {
      const alternative = tokenize(value)
      const text = alternative.join(' ')
      if (alternative.length === 0 || texts.has(text) || alternatives.length >= limits.synonymAlternativesMax) continue
      texts.add(text)
      alternatives.push(alternative)
    }
    if (alternatives.length === 0) continue
    map.set(joined, alternatives)
    seen.set(joined, texts)
    longestKey = Math.max(longestKey, words.length)
  }
  return { synonyms: map, longestKey }
}

/** The words a query searches and the synonyms found in them. */
export function queryTerms (query: string, rules: QueryRules = NO_RULES): QueryTerms {
  const words = queryWords(query, rules.stopWords)
  return { words, synonyms: rules.longestKey === 0 ? [] : synonymSpans(words, rules) }
}

function synonymSpans (words: readonly QueryWord[], rules: QueryRules): SynonymSpan[] {
  const lookUp = (first: number, count: number) => rules.synonyms.get(words.slice(first, first + count).map(({ word }) => word).join(' '))
  const spans: SynonymSpan[] = []
  for (let i = 0; i < words.length; i++) {
    const alternatives = lookUp(i, 1)
    if (alternatives !== undefined) spans.push({ first: i, last: i, alternatives })
  }
  /** The longest key of several words starting at word `first`. */
  const longKeyAt = (first: number): SynonymSpan | undefined => {
    for (let count = Math.min(rules.longestKey, words.length - first); count >= 2; count--) {
      const alternatives = lookUp(first, count)
      if (alternatives !== undefined) return { first, last: first + count - 1, alternatives }
    }
    return undefined
  }
  // Keys of several words do not overlap: one inside another's words makes one FTS5 expression,
  // crossing ones could not.
  for (let i = 0; i < words.length;) {
    const span = longKeyAt(i)
    if (span === undefined) {
      i++
    } else {
      spans.push(span)
      i = span.last + 1
    }
  }
  return spans.sort((a, b) => a.first - b.first || a.last - b.last)
}

/**
 * What makes a catalog's stop words or synonyms unusable, said so a client can mend it; undefined
 * when nothing does. The schema bounds their sizes; this checks what depends on how search splits
 * text (at anything that is not a letter or a digit).
 */
export function wordSettingsProblem ({ synonyms, stopWords }: WordSettings): string | undefined {
  for (const word of stopWords ?? []) {
    const words = tokenize(word)
    if (words.length !== 1) {
      return `stopWords: ${JSON.stringify(word)} is ${words.length === 0 ? 'no word' : `${words.length} words`} as search splits text (at anything that is not a letter or a digit); a stop word is one word`
    }
  }
  const stop = stopWordSet(stopWords ?? [])
  for (const [key, values] of Object.entries(synonyms ?? {})) {
    const all = tokenize(key)
    const words = keyWords(key, stop)
    if (all.length === 0) return `synonyms: the key ${JSON.stringify(key)} has no word (no letter or digit)`
    if (words.length === 0) return `synonyms: the key ${JSON.stringify(key)} is made of stop words, which a query leaves out: it would never be found`
    if (words.length > limits.synonymKeyWordsMax) {
      return `synonyms: the key ${JSON.stringify(key)} has ${words.length} words besides stop words; a key has at most ${limits.synonymKeyWordsMax}, as in Meilisearch, which looks no longer one up`
    }
    const empty = values.find((value) => tokenize(value).length === 0)
    if (empty !== undefined) return `synonyms: ${JSON.stringify(empty)}, an alternative of ${JSON.stringify(key)}, has no word (no letter or digit)`
  }
  return undefined
}
