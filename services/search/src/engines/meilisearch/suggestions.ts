/**
 * Autocomplete on Meilisearch: a suggestions index per project with one document per completion,
 * keyed by its folded text. A completion is a catalog phrase (a title, brand or category, weighted by
 * how many items carry it), a popular search (weighted by how often it was asked, five times a
 * phrase, once it is suggested: keyword hits, enough distinct searchers, not excluded), or both.
 * The weights are kept by read-modify-write: one writer per index in this process (see
 * MeilisearchIndex), and two service instances writing the same completion at once may lose one
 * count or one searcher, which only nudges an order of suggestions or delays one.
 */
import { createHash } from 'node:crypto'
import type { SearchParams } from 'meilisearch'
import { compareCompletions, SEARCH_WEIGHT, suggestionPhrases, type Completion } from '../../engine/phrases.js'
import type { PopularSearch } from '../../engine/port.js'
import { searchStatus, type SuggestionRules } from '../../engine/settings.js'
import { foldQuery, foldText } from '../../text.js'
import { SUGGESTION_MATCHING } from './ranking.js'

export interface Suggestion {
  id: string
  /** What autocomplete returns: the phrase as an item wrote it, or the search as folded. */
  text: string
  /** How many items carry the phrase. */
  items: number
  /** How often the search was made. */
  searches: number
  /** The keyword hits of its last search whose keyword hits were known; null: none known yet. */
  lastHits: number | null
  /**
   * The keyed hashes (hex, see engine/searchers.ts) of its distinct searchers, each added while
   * there were fewer than the catalog's suggestionsMinSearchers. Absent from documents written
   * before searchers were counted: none.
   */
  searchers?: string[]
  /** What the ranking sorts by; 0 is never suggested. */
  weight: number
}

/** Document ids allow only [A-Za-z0-9_-]: the folded text is hashed into one. */
export const suggestionId = (folded: string) => 's' + createHash('sha256').update(folded).digest('base64url')

/** The search side of a completion, as the console lists it and as it is judged (searchStatus). */
export const popularSearchOf = (s: Pick<Suggestion, 'text' | 'searches' | 'lastHits' | 'searchers'>): PopularSearch =>
  ({ query: foldQuery(s.text), count: s.searches, searchers: s.searchers?.length ?? 0, hits: s.lastHits })

/** The completion with its weight under the catalog's rules: its searches count once it is suggested. */
export function weighed (s: Omit<Suggestion, 'weight'>, rules: SuggestionRules): Suggestion {
  const suggested = s.searches > 0 && searchStatus(popularSearchOf(s), rules) === 'suggested'
  return { ...s, weight: s.items + (suggested ? s.searches * SEARCH_WEIGHT : 0) }
}

const empty = (folded: string, text: string): Omit<Suggestion, 'weight'> => ({ id: suggestionId(folded), text, items: 0, searches: 0, lastHits: null, searchers: [] })

/** How the count of items carrying each phrase changes when `before` documents become `after`. */
export function phraseChanges (before: Array<Record<string, unknown>>, after: Array<Record<string, unknown>>): Map<string, { phrase: string, delta: number }> {
  const changes = new Map<string, { phrase: string, delta: number }>()
  const count = (documents: Array<Record<string, unknown>>, delta: number) => {
    for (const document of documents) {
      for (const phrase of suggestionPhrases(document)) {
        const folded = foldText(phrase)
        const entry = changes.get(folded)
        if (entry === undefined) changes.set(folded, { phrase, delta })
        else entry.delta += delta
      }
    }
  }
  count(before, -1)
  count(after, 1)
  for (const [folded, { delta }] of changes) if (delta === 0) changes.delete(folded)
  return changes
}

/** The completion after `delta` more items carry the phrase; null when nothing is left of it. */
export function withItems (current: Suggestion | undefined, folded: string, phrase: string, delta: number, rules: SuggestionRules): Suggestion | null {
  const base = current ?? empty(folded, phrase)
  const items = Math.max(0, base.items + delta)
  if (items === 0 && base.searches === 0) return null
  // A phrase shows as an item wrote it; a search only when no item carries it.
  return weighed({ ...base, items, text: items > 0 ? (delta > 0 ? phrase : base.text) : folded }, rules)
}

/**
 * The completion after one more search for it: its keyword hits when known (null leaves the last
 * known), and its searcher's hash (hex) counted while it has fewer searchers than the rules ask.
 */
export function withSearch (current: Suggestion | undefined, folded: string, search: { keywordHits: number | null, searcher: string }, rules: SuggestionRules): Suggestion {
  const base = current ?? empty(folded, folded)
  const searchers = base.searchers ?? []
  const counted = searchers.length < rules.minSearchers && !searchers.includes(search.searcher) ? [...searchers, search.searcher] : searchers
  return weighed({ ...base, searches: base.searches + 1, lastHits: search.keywordHits ?? base.lastHits, searchers: counted }, rules)
}

/** The most hits one search of the suggestions index can reach (Meilisearch's default maxTotalHits). */
const MAX_WINDOW = 1000
const FIRST_WINDOW = 20

/** A hit of the suggestions index as suggestionSearch asks for it. */
export interface SuggestionHit {
  text: string
  weight: number
  _rankingScoreDetails?: { typo?: { typoCount?: number } }
}

/**
 * The search of the suggestions index for the best `window` completions of a term: every word must
 * match (the last as a prefix), ranked by typos then weight (SUGGESTIONS_SETTINGS), with the typo
 * count of each hit, which the order of suggestions starts with.
 */
export function suggestionSearch (window: number): SearchParams {
  return { limit: window, offset: 0, filter: 'weight > 0', matchingStrategy: SUGGESTION_MATCHING, attributesToRetrieve: ['text', 'weight'], showRankingScoreDetails: true }
}

export function completionOf (hit: SuggestionHit): Completion {
  return { key: foldText(hit.text), text: hit.text, weight: hit.weight, typos: hit._rankingScoreDetails?.typo?.typoCount ?? 0 }
}

/**
 * A page of suggestions, in the order of compareCompletions as on the embedded engine. Meilisearch
 * ranks by typos then weight and breaks the remaining ties its own way, so the adapter orders the
 * hits itself, from a window of Meilisearch's best that holds every completion tied with the last
 * one of the page (widened until it does): the page is then a slice of one list whatever its size.
 */
export async function pageOfSuggestions (search: (window: number) => Promise<SuggestionHit[]>, offset: number, limit: number): Promise<string[]> {
  if (limit === 0) return []
  const wanted = offset + limit
  for (let window = Math.min(MAX_WINDOW, Math.max(FIRST_WINDOW, 2 * wanted)); ; window = Math.min(MAX_WINDOW, 2 * window)) {
    const found = (await search(window)).map(completionOf)
    if (holdsPage(found, window, wanted)) return found.sort(compareCompletions).slice(offset, offset + limit).map((c) => c.text)
  }
}

/** Whether Meilisearch's best `window` (in its order) surely hold the first `wanted` of our order. */
function holdsPage (found: Completion[], window: number, wanted: number): boolean {
  if (found.length < window || window >= MAX_WINDOW) return true
  const edge = found[wanted - 1]!
  const last = found.at(-1)!
  return last.typos > edge.typos || (last.typos === edge.typos && last.weight < edge.weight)
}
