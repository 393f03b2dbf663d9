import { Type, type Static } from 'typebox'
import { limits } from './limits.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Term = (description: string) => Type.String({ maxLength: limits.termMaxChars, description })
const ConsumerId = Type.String({
  maxLength: limits.consumerIdMaxChars,
  description: 'Recorded for analytics; also who made the search, as autocomplete counts its distinct searchers (without it, the client address)'
})

/**
 * Which query words a document must contain, as Meilisearch's `matchingStrategy`: `last` drops words
 * from the end of the query, `frequency` drops the words found in the most documents first, `all`
 * drops none. Documents matching more words rank first.
 */
export const MatchingStrategy = Type.Union([Type.Literal('last'), Type.Literal('all'), Type.Literal('frequency')])
export type MatchingStrategy = Static<typeof MatchingStrategy>
/** Meilisearch's default, and ours when a request names none. */
export const matchingStrategyDefault: MatchingStrategy = 'last'

/**
 * Meilisearch's defaults for highlight and crop (cropLength, cropMarker, highlightPreTag,
 * highlightPostTag), and ours when a request names none.
 */
export const formatDefaults = {
  cropLength: 10,
  cropMarker: '…',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>'
} as const

/** attributes_to_highlight and attributes_to_crop: null or absent is none, as Meilisearch's null. */
const FormatAttributes = (description: string) => Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
  maxItems: limits.formatAttributesMax,
  description
})))
/** A tag or marker inserted into _formatted as the request gives it (the text around it is escaped, not it). */
const Marker = (fallback: string, description: string) => Type.Optional(Type.String({ maxLength: limits.formatMarkerMaxChars, default: fallback, description }))

/** A search's matching_strategy field, the same on POST /search and POST /facet-search. */
const MatchingStrategyField = Type.Optional(Type.Union(MatchingStrategy.anyOf, {
  default: matchingStrategyDefault,
  description: 'Which query words a hit must contain (Meilisearch matchingStrategy). last (default): every word, then fewer, ' +
    'dropping words from the end of the query (the first word is always needed); frequency: dropping the words in the most ' +
    'documents first (the rarest are always needed); all: every word. Hits matching more words come first; totals and ' +
    'facets count every hit. As in Meilisearch, words after the tenth are ignored'
}))
const Filters = Type.Optional(Nullable(Type.String({ maxLength: limits.filterMaxChars, description: 'Meilisearch filter expression' })))
const FacetName = (description?: string) => Type.String({ minLength: 1, maxLength: limits.facetNameMaxChars, ...(description === undefined ? {} : { description }) })

const SearchType = (description?: string) => Type.Optional(Type.Union([Type.Literal('keyword'), Type.Literal('hybrid')], { default: 'keyword', ...(description === undefined ? {} : { description }) }))
const SemanticRatio = (description?: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: limits.semanticRatioDefault, ...(description === undefined ? {} : { description }) }))

export const SearchBody = Type.Object({
  search_term: Term('Query string; an empty one browses'),
  search_type: SearchType(),
  consumer_id: Type.Optional(Nullable(ConsumerId)),
  filters: Filters,
  facets: Type.Optional(Nullable(Type.Array(FacetName(), { maxItems: limits.facetsMax }))),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.searchLimitMax }))),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.searchWindowMax }))),
  semantic_ratio: SemanticRatio(),
  matching_strategy: MatchingStrategyField,
  sort: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
    maxItems: limits.sortCriteriaMax,
    description: 'Extension (Meilisearch sort): `attribute:asc` or `attribute:desc`, most important first, each attribute ' +
      'sortable (settings sortableAttributes; otherwise 400 invalid_sort). As Meilisearch\'s sort ranking rule, it applies ' +
      'after the words rule: hits matching more query words, and then those with fewer typos, come first whatever their ' +
      'values; an empty search_term sorts every hit. Numbers come before strings, strings in byte order ignoring case, ' +
      'an array counts by its smallest value (asc) or largest (desc), and items without a value come last'
  }))),
  show_ranking_score: Type.Optional(Type.Boolean({
    default: false,
    description: 'Extension (Meilisearch showRankingScore): each hit gets _rankingScore in [0, 1]'
  })),
  attributes_to_highlight: FormatAttributes('Extension (Meilisearch attributesToHighlight): attributes in which each hit\'s ' +
    '_formatted wraps the query\'s words in highlight_pre_tag and highlight_post_tag, matched ignoring case and accents, ' +
    'with typos (marked whole) and, for the last word, as a prefix (marked up to what was typed); ["*"] for all. A dot ' +
    'path names a nested attribute, arrays of strings are highlighted element by element, an attribute no hit has is ' +
    'ignored. With this list or attributes_to_crop, each hit gets _formatted: every attribute of the hit, numbers and ' +
    'booleans as they are, strings HTML-escaped (unlike Meilisearch) except the inserted tags and crop markers'),
  attributes_to_crop: FormatAttributes('Extension (Meilisearch attributesToCrop): attributes cut in _formatted to crop_length ' +
    'words around the best match (the most distinct query words closest together), or to their first words without one, ' +
    'with crop_marker where text was cut; `attribute:N` crops that attribute to N words, ["*"] crops all; the last entry ' +
    'naming an attribute wins'),
  crop_length: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: limits.cropLengthMax,
    default: formatDefaults.cropLength,
    description: 'Extension (Meilisearch cropLength): words kept by attributes_to_crop (0 keeps the whole text)'
  })),
  crop_marker: Marker(formatDefaults.cropMarker, 'Extension (Meilisearch cropMarker): put where attributes_to_crop cut a text, ' +
    'as given (not escaped); empty for none'),
  highlight_pre_tag: Marker(formatDefaults.highlightPreTag, 'Extension (Meilisearch highlightPreTag): inserted before each ' +
    'highlighted match, as given (not escaped)'),
  highlight_post_tag: Marker(formatDefaults.highlightPostTag, 'Extension (Meilisearch highlightPostTag): inserted after each ' +
    'highlighted match, as given (not escaped)')
}, { additionalProperties: false })
export type SearchBody = Static<typeof SearchBody>

/**
 * The fields the spec's sample hit types, with their JSON types: what a client may rely on in every
 * hit. An item's value of one of them is that type or null: POST /documents refuses another, which a
 * hit could not show as the type it promises ("price": "cheap" was a 500 on every search finding it).
 */
export const hitFieldTypes = {
  title: 'string', description: 'string', price: 'number', category: 'string', brand: 'string', in_stock: 'boolean', rating: 'number'
} as const

/** Whether a value (not null) is of a typed hit field's type (hitFieldTypes). */
export const isOfHitType = (type: typeof hitFieldTypes[keyof typeof hitFieldTypes], value: unknown): boolean =>
  type === 'string' ? typeof value === 'string' : type === 'number' ? typeof value === 'number' : typeof value === 'boolean'

/**
 * A catalog item as indexed; the sample fields are listed, any other field of the document is kept.
 * The extensions add _rankingScore (show_ranking_score) and _formatted (highlight and crop), allowed
 * as any other field.
 */
export const SearchHit = Type.Object({
  id: Type.String(),
  title: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  price: Type.Optional(Nullable(Type.Number())),
  category: Type.Optional(Nullable(Type.String())),
  brand: Type.Optional(Nullable(Type.String())),
  in_stock: Type.Optional(Nullable(Type.Boolean())),
  rating: Type.Optional(Nullable(Type.Number()))
}, {
  additionalProperties: true,
  // Not declared as properties, as _rankingScore is not: an item's own field of that name is then
  // serialised as before, whatever it holds.
  description: 'A catalog item, with the extensions\' fields when asked: _rankingScore (show_ranking_score), a number in ' +
    '[0, 1]; _formatted (attributes_to_highlight, attributes_to_crop), an object holding every attribute of the item ' +
    'highlighted and cropped, its strings HTML-escaped except the inserted tags and crop markers'
})
export type SearchHit = Static<typeof SearchHit>

export const FacetDistribution = Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer({ minimum: 0 })), {
  description: 'Per facet asked, its values\' counts over every match (not the page alone). A hybrid search\'s matches on the ' +
    'embedded engine: the keyword matches and the items closest in meaning that the semantic side reads for a first page of ' +
    'the default limit, the same whatever page is asked; on Meilisearch, what Meilisearch counts'
})

export const SearchResponse = Type.Object({
  hits: Type.Array(SearchHit),
  query: Type.String({ description: 'The processed query that was executed' }),
  query_id: Type.String({
    format: 'uuid',
    description: 'Extension: this answer\'s own id, new for every request (an answer served from the cache too). Send it with ' +
      'POST /events when the shopper clicks a hit or converts. A search made with the service token is not recorded for ' +
      'analytics, so POST /events refuses its query_id (404 query_not_found)'
  }),
  processingTimeMs: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
  estimatedTotalHits: Type.Integer({ minimum: 0 }),
  facetDistribution: Type.Optional(FacetDistribution)
})
export type SearchResponse = Static<typeof SearchResponse>

/**
 * Meilisearch's facet search (POST /indexes/{uid}/facet-search: facetName, facetQuery, q, filter,
 * matchingStrategy), in the snake case of POST /search.
 */
export const FacetSearchBody = Type.Object({
  facet_name: FacetName('A facetable attribute (settings facetableAttributes; otherwise 400 invalid_facet) whose values are searched'),
  facet_query: Type.Optional(Nullable(Type.String({
    maxLength: limits.facetQueryMaxChars,
    description: 'The beginning of the values wanted, as Meilisearch\'s facetQuery: a value is a hit when it begins with the query, ' +
      'ignoring case and accents (and, on the embedded engine, punctuation: "navy bl" finds "Navy-Blue"), with typos by the query\'s length ' +
      '(none under 5 characters, 1 from 5, 2 from 9, anywhere in it); only its beginning, as in Meilisearch ("blue" does not find "Navy Blue"). ' +
      'Absent, null or without a letter or digit: every value, the most frequent first'
  }))),
  search_term: Type.Optional(Nullable(Term('The values are counted over the items this search matches, as its ' +
    'facetDistribution counts them; absent or empty: every item (that the filters allow)'))),
  filters: Filters,
  matching_strategy: MatchingStrategyField,
  search_type: SearchType('As POST /search\'s: hybrid counts the values over the items a hybrid search of search_term ' +
    'matches, as its facetDistribution counts them: the keyword matches and the items closest in meaning that the semantic side ' +
    'reads for a first page of the default limit, whatever page is asked; 400 hybrid_search_disabled on a server without embeddings'),
  semantic_ratio: SemanticRatio('As POST /search\'s, with search_type hybrid: 0 counts the keyword matches alone, 1 the items closest in meaning alone')
}, { additionalProperties: false })
export type FacetSearchBody = Static<typeof FacetSearchBody>

/** One value of a facet search, with the number of matching items holding it. */
export const FacetHit = Type.Object({
  value: Type.String({ description: 'The value as the first item holding it wrote it (as facetDistribution shows it)' }),
  count: Type.Integer({ minimum: 1, description: 'Items holding the value among those the search_term and filters match' })
}, { additionalProperties: false })
export type FacetHit = Static<typeof FacetHit>

export const FacetSearchResponse = Type.Object({
  facet_hits: Type.Array(FacetHit, {
    maxItems: limits.facetValuesMax,
    description: 'The most frequent matching values first, ties by value; string and boolean values only, as in Meilisearch (numbers are never hits)'
  }),
  facet_query: Type.String({ description: 'The processed facet_query (Unicode-normalised, trimmed, white space collapsed); empty when none was given' }),
  processingTimeMs: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type FacetSearchResponse = Static<typeof FacetSearchResponse>

export const AutocompleteBody = Type.Object({
  autocomplete_term: Term('The partial term'),
  consumer_id: Type.Optional(Nullable(ConsumerId)),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.autocompleteLimitMax }))),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.searchWindowMax })))
}, { additionalProperties: false })
export type AutocompleteBody = Static<typeof AutocompleteBody>

export const AutocompleteResponse = Type.Object({
  suggestions: Type.Array(Type.String()),
  query: Type.String(),
  processingTimeMs: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type AutocompleteResponse = Static<typeof AutocompleteResponse>

/**
 * Why a popular search is or is not among autocomplete's suggestions, the first reason that holds:
 * `excluded` (the settings' suggestionsExcluded), `no_keyword_results` (its keyword search found
 * nothing), `few_searchers` (fewer distinct searchers than suggestionsMinSearchers),
 * `no_keyword_results` (nothing known yet of its keyword results); else `suggested`.
 */
export const SuggestionStatus = Type.Union([Type.Literal('suggested'), Type.Literal('few_searchers'), Type.Literal('no_keyword_results'), Type.Literal('excluded')], {
  description: 'Whether autocomplete suggests it, or the first reason it does not: excluded (settings suggestionsExcluded); ' +
    'no_keyword_results (its keyword search found nothing); few_searchers (fewer than settings suggestionsMinSearchers); ' +
    'no_keyword_results (enough searchers, but its keyword results are not known yet)'
})
export type SuggestionStatus = Static<typeof SuggestionStatus>

/** A popular search of the catalog, as autocomplete counts it. */
export const SuggestionCandidate = Type.Object({
  query: Type.String({ description: 'The search as counted: lower case, without accents, white space collapsed' }),
  count: Type.Integer({ minimum: 1, description: 'How often it was made (not counting those made with the service token)' }),
  searchers: Type.Integer({
    minimum: 0,
    description: 'Distinct searchers counted: each is counted while the search has fewer than suggestionsMinSearchers, so this stops there'
  }),
  hits: Nullable(Type.Integer({
    minimum: 0,
    description: 'Items its keyword search matched the last time that was known (for a hybrid search, its keyword side); ' +
      'null: not known yet'
  })),
  status: SuggestionStatus
}, { additionalProperties: false })
export type SuggestionCandidate = Static<typeof SuggestionCandidate>

export const SuggestionCandidatesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: limits.candidatesLimitMax, default: limits.candidatesLimitDefault })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: limits.popularSearchesMax, default: 0 }))
}, { additionalProperties: false })
export type SuggestionCandidatesQuery = Static<typeof SuggestionCandidatesQuery>

export const SuggestionCandidatesResponse = Type.Object({
  results: Type.Array(SuggestionCandidate, { description: 'The most searched first' }),
  total: Type.Integer({ minimum: 0, description: 'Popular searches the catalog keeps' }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type SuggestionCandidatesResponse = Static<typeof SuggestionCandidatesResponse>
