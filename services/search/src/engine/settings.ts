import { limits, type SuggestionStatus } from '@chatsearch/contracts'
import { foldQuery } from '../text.js'
import type { Document, IndexSettings, PopularSearch } from './port.js'

/** Attributes people search by, in the order they matter when they are present. */
const SEARCH_PRIORITY = ['title', 'name', 'brand', 'category', 'categories', 'tags', 'color', 'colour', 'description']
const FACET_MAX_DISTINCT = 200
/** Strings longer than this on average are prose (descriptions), not values to filter on. */
const FILTER_MAX_LENGTH = 40
const PROSE = new Set(['title', 'name', 'description', 'summary', 'body', 'content', 'text'])

interface Observed { strings: number, numbers: number, booleans: number, totalLength: number, distinct: Set<string>, order: number }

function observe (documents: Document[]): Map<string, Observed> {
  const seen = new Map<string, Observed>()
  const note = (attr: string, value: unknown) => {
    let o = seen.get(attr)
    if (o === undefined) {
      o = { strings: 0, numbers: 0, booleans: 0, totalLength: 0, distinct: new Set(), order: seen.size }
      seen.set(attr, o)
    }
    if (typeof value === 'string') { o.strings++; o.totalLength += value.length; o.distinct.add(value) }
    if (typeof value === 'number') { o.numbers++; o.distinct.add(String(value)) }
    if (typeof value === 'boolean') { o.booleans++; o.distinct.add(String(value)) }
  }
  for (const doc of documents) {
    for (const [attr, value] of Object.entries(doc)) {
      if (attr === 'id' || attr.startsWith('_')) continue
      for (const v of Array.isArray(value) ? value : [value]) note(attr, v)
    }
  }
  return seen
}

/**
 * Settings for an index that has none yet, guessed from its first documents: text attributes are
 * searchable (titles and names first, long descriptions last); numbers, booleans and short strings are
 * filterable; those with few distinct values are facetable. Nothing is sortable, as in Meilisearch:
 * each sortable attribute is one more set of values to index, for an order someone has to ask for.
 * No synonyms and no stop words: they are a shop's own words, not something its items tell.
 * Autocomplete's rules are their defaults.
 */
export function inferSettings (documents: Document[]): IndexSettings {
  const seen = observe(documents)
  const rank = (attr: string) => {
    const i = SEARCH_PRIORITY.indexOf(attr)
    return i === -1 ? SEARCH_PRIORITY.length - 1 : i
  }
  const text = [...seen].filter(([, o]) => o.strings > 0)
  const searchable = text
    .sort(([a, oa], [b, ob]) => rank(a) - rank(b) || oa.order - ob.order)
    .map(([attr]) => attr)
  const filterable = [...seen]
    .filter(([attr, o]) => o.numbers + o.booleans > 0 || (o.strings > 0 && o.totalLength / o.strings <= FILTER_MAX_LENGTH && !PROSE.has(attr)))
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([attr]) => attr)
  const facetable = filterable.filter((attr) => {
    const o = seen.get(attr)!
    return o.numbers === 0 && o.distinct.size <= FACET_MAX_DISTINCT
  })
  return {
    searchableAttributes: searchable,
    filterableAttributes: filterable,
    facetableAttributes: facetable,
    sortableAttributes: [],
    synonyms: {},
    stopWords: [],
    suggestionsMinSearchers: limits.suggestionsMinSearchersDefault,
    suggestionsExcluded: []
  }
}

/**
 * Settings as an engine answers and stores them: every field present. Settings saved before sorting,
 * synonyms or stop words existed, and a PUT /settings without them, have none (Meilisearch's
 * defaults); before autocomplete's rules, their defaults.
 */
export function completeSettings (settings: IndexSettings): IndexSettings {
  return {
    ...settings,
    sortableAttributes: settings.sortableAttributes ?? [],
    synonyms: settings.synonyms ?? {},
    stopWords: settings.stopWords ?? [],
    suggestionsMinSearchers: settings.suggestionsMinSearchers ?? limits.suggestionsMinSearchersDefault,
    suggestionsExcluded: settings.suggestionsExcluded ?? []
  }
}

/**
 * New settings as an engine applies and keeps them: complete, each excluded search folded as
 * searches are counted ("Free  Money" is "free money"), once.
 */
export function appliedSettings (settings: IndexSettings): IndexSettings {
  const complete = completeSettings(settings)
  return { ...complete, suggestionsExcluded: [...new Set(complete.suggestionsExcluded!.map(foldQuery).filter((query) => query !== ''))] }
}

/**
 * Whether two settings index the catalog alike: when only autocomplete's rules differ, a change of
 * settings re-indexes nothing.
 */
export function sameIndexing (a: IndexSettings, b: IndexSettings): boolean {
  const indexing = (s: IndexSettings) =>
    JSON.stringify([s.searchableAttributes, s.filterableAttributes, s.facetableAttributes, s.sortableAttributes ?? [], s.synonyms ?? {}, s.stopWords ?? []])
  return indexing(a) === indexing(b)
}

/** What autocomplete asks of a popular search before suggesting it, from a catalog's settings (as applied: see appliedSettings). */
export interface SuggestionRules {
  /** Distinct searchers it needs (suggestionsMinSearchers). */
  minSearchers: number
  /** Searches never suggested (suggestionsExcluded), folded. */
  excluded: readonly string[]
}

export function suggestionRules (settings: Pick<IndexSettings, 'suggestionsMinSearchers' | 'suggestionsExcluded'>): SuggestionRules {
  return { minSearchers: settings.suggestionsMinSearchers ?? limits.suggestionsMinSearchersDefault, excluded: settings.suggestionsExcluded ?? [] }
}

/**
 * Whether autocomplete suggests a popular search, and if not, the first reason why: excluded; its
 * keyword search found nothing; too few searchers; its keyword results not known yet (on Meilisearch,
 * a search made only as hybrid is looked up when it has enough searchers).
 */
export function searchStatus (search: PopularSearch, rules: SuggestionRules): SuggestionStatus {
  if (rules.excluded.includes(search.query)) return 'excluded'
  if (search.hits === 0) return 'no_keyword_results'
  if (search.searchers < rules.minSearchers) return 'few_searchers'
  if (search.hits === null) return 'no_keyword_results'
  return 'suggested'
}

/** The attributes whose values go into the fields table: whatever a filter, a facet or a sort can use. */
export function fieldAttributes (settings: IndexSettings): string[] {
  return [...new Set([...settings.filterableAttributes, ...settings.facetableAttributes, ...settings.sortableAttributes ?? []])]
}
