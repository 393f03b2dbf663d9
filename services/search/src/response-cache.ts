import { createHash } from 'node:crypto'
import { canonicalJson } from '@chatsearch/shell'
import { formatDefaults, limits, matchingStrategyDefault, type SearchRule } from '@chatsearch/contracts'
import { filterToMeilisearch, parseFilter } from '@chatsearch/filter'

/** Keys and version counters of the search response cache in Redis. */
export const SEARCH_CACHE_PREFIX = 'chatsearch:search-cache'

/**
 * A filter in one spelling: parsed and written back, so spacing, redundant parentheses and quoting
 * do not make two caches of one question. An unparsable filter stays as it is (it is answered 400
 * and never cached).
 */
function normalFilter (text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null
  try {
    const node = parseFilter(text)
    return node === null ? null : filterToMeilisearch(node)
  } catch {
    return text
  }
}

export interface SearchRequestKey {
  query: string
  filters?: string | null | undefined
  facets?: string[] | null | undefined
  limit: number
  offset: number
  search_type?: string | undefined
  semantic_ratio?: number | undefined
  matching_strategy?: string | undefined
  sort?: string[] | null | undefined
  show_ranking_score?: boolean | undefined
  attributes_to_highlight?: string[] | null | undefined
  attributes_to_crop?: string[] | null | undefined
  crop_length?: number | undefined
  crop_marker?: string | undefined
  highlight_pre_tag?: string | undefined
  highlight_post_tag?: string | undefined
  /** The search rules that apply to it now (rules/match.ts), in precedence order. */
  rules?: readonly SearchRule[] | undefined
}

/**
 * Highlight and crop (see engine/format.ts): null without either list, whatever the tags and crop
 * options (they then change nothing); otherwise every option, defaults spelled out, the highlighted
 * attributes as a set and the cropped ones as a list (the last entry naming an attribute wins).
 */
function formatKey (request: SearchRequestKey) {
  const highlight = request.attributes_to_highlight ?? null
  const crop = request.attributes_to_crop ?? null
  if (highlight === null && crop === null) return null
  return {
    highlight: [...new Set(highlight ?? [])].sort(),
    crop: [...(crop ?? [])],
    length: request.crop_length ?? formatDefaults.cropLength,
    marker: request.crop_marker ?? formatDefaults.cropMarker,
    tags: [request.highlight_pre_tag ?? formatDefaults.highlightPreTag, request.highlight_post_tag ?? formatDefaults.highlightPostTag]
  }
}

const hash = (kind: string, value: unknown) => `${kind}:${createHash('sha256').update(canonicalJson(value)).digest('base64url')}`

/**
 * What makes two searches the same question: the processed query, the filter's normal form, the
 * facets as a set (`null` and absent differ: only a request naming facets gets a distribution), the
 * page, the matching strategy (absent is the default: one question), the sort as a list (its order
 * is the criteria's priority; absent, null and empty are no sort), the ranking options and those of
 * highlight and crop (the tags are in the answer), and the search rules that apply, whole and in
 * order: a rule whose window opens or closes, or a replica that has not yet read a new list, asks
 * another question, so no answer is served under rules it was not computed with. consumer_id is
 * not part of it: it only feeds analytics.
 */
export function searchKey (request: SearchRequestKey): string {
  const hybrid = request.search_type === 'hybrid'
  const format = formatKey(request)
  return hash('search', {
    q: request.query,
    filter: normalFilter(request.filters),
    facets: request.facets === undefined || request.facets === null ? null : [...new Set(request.facets)].sort(),
    limit: request.limit,
    offset: request.offset,
    hybrid: hybrid ? request.semantic_ratio ?? limits.semanticRatioDefault : null,
    matching: request.matching_strategy ?? matchingStrategyDefault,
    sort: request.sort === undefined || request.sort === null || request.sort.length === 0 ? null : [...request.sort],
    score: request.show_ranking_score === true,
    // Left out without highlight and crop: a request written before them keeps its key.
    ...(format === null ? {} : { format }),
    // Left out when no rule applies, for the same reason.
    ...(request.rules === undefined || request.rules.length === 0 ? {} : { rules: request.rules })
  })
}

export interface FacetSearchRequestKey {
  facet_name: string
  /** Processed (processQuery), as the answer repeats it. */
  facet_query: string
  /** The processed search_term. */
  query: string
  filters?: string | null | undefined
  matching_strategy?: string | undefined
  search_type?: string | undefined
  semantic_ratio?: number | undefined
}

/**
 * What makes two facet searches the same question: the facet, the processed facet query (the answer
 * repeats it), and the search whose matches are counted as searchKey reads it.
 */
export function facetSearchKey (request: FacetSearchRequestKey): string {
  return hash('facet-search', {
    facet: request.facet_name,
    facet_query: request.facet_query,
    q: request.query,
    filter: normalFilter(request.filters),
    matching: request.matching_strategy ?? matchingStrategyDefault,
    // Left out of a keyword facet search: a request written before search_type keeps its key.
    ...(request.search_type === 'hybrid' ? { hybrid: request.semantic_ratio ?? limits.semanticRatioDefault } : {})
  })
}

export function autocompleteKey (query: string, limit: number, offset: number): string {
  return hash('autocomplete', { q: query, limit, offset })
}
