/**
 * Autocomplete on Meilisearch: a suggestions index per project with one document per completion,
 * keyed by its folded text. A completion is a catalog phrase (a title, brand or category, weighted by
 * how many items carry it), a popular search (weighted by how often it was asked, five times a
 * phrase, once it found something), or both. The weights are kept by read-modify-write: one writer
 * per index in this process (see MeilisearchIndex), and two service instances writing the same
 * completion at once may lose one count, which only nudges an order of suggestions.
 */
import { createHash } from 'node:crypto'
import { suggestionPhrases } from '../../engine/phrases.js'
import { foldText } from '../embedded/tokenize.js'

export interface Suggestion {
  id: string
  /** What autocomplete returns: the phrase as an item wrote it, or the search as folded. */
  text: string
  /** How many items carry the phrase. */
  items: number
  /** How often the search was made, and how many hits it had the last time. */
  searches: number
  lastHits: number
  /** What the ranking sorts by; 0 is never suggested. */
  weight: number
}

/** A search counts five times a catalog phrase, as in the embedded engine. */
const SEARCH_WEIGHT = 5

/** Document ids allow only [A-Za-z0-9_-]: the folded text is hashed into one. */
export const suggestionId = (folded: string) => 's' + createHash('sha256').update(folded).digest('base64url')

/** A search as it is counted: folded, white space collapsed. */
export const foldQuery = (query: string) => foldText(query).replace(/\s+/g, ' ').trim()

function weighed (s: Omit<Suggestion, 'weight'>): Suggestion {
  return { ...s, weight: s.items + (s.lastHits > 0 ? s.searches * SEARCH_WEIGHT : 0) }
}

const empty = (folded: string, text: string): Omit<Suggestion, 'weight'> => ({ id: suggestionId(folded), text, items: 0, searches: 0, lastHits: 0 })

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
export function withItems (current: Suggestion | undefined, folded: string, phrase: string, delta: number): Suggestion | null {
  const base = current ?? empty(folded, phrase)
  const items = Math.max(0, base.items + delta)
  if (items === 0 && base.searches === 0) return null
  // A phrase shows as an item wrote it; a search only when no item carries it.
  return weighed({ ...base, items, text: items > 0 ? (delta > 0 ? phrase : base.text) : folded })
}

/** The completion after one more search for it, which found `hits` items. */
export function withSearch (current: Suggestion | undefined, folded: string, hits: number): Suggestion {
  const base = current ?? empty(folded, folded)
  return weighed({ ...base, searches: base.searches + 1, lastHits: hits })
}
