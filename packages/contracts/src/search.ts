import { Type, type Static } from 'typebox'
import { limits } from './limits.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Term = (description: string) => Type.String({ maxLength: limits.termMaxChars, description })
const ConsumerId = Type.String({ maxLength: limits.consumerIdMaxChars, description: 'Recorded for analytics' })

/**
 * Which query words a document must contain, as Meilisearch's `matchingStrategy`: `last` drops words
 * from the end of the query, `frequency` drops the words found in the most documents first, `all`
 * drops none. Documents matching more words rank first.
 */
export const MatchingStrategy = Type.Union([Type.Literal('last'), Type.Literal('all'), Type.Literal('frequency')])
export type MatchingStrategy = Static<typeof MatchingStrategy>
/** Meilisearch's default, and ours when a request names none. */
export const matchingStrategyDefault: MatchingStrategy = 'last'

export const SearchBody = Type.Object({
  search_term: Term('Query string; an empty one browses'),
  search_type: Type.Optional(Type.Union([Type.Literal('keyword'), Type.Literal('hybrid')], { default: 'keyword' })),
  consumer_id: Type.Optional(Nullable(ConsumerId)),
  filters: Type.Optional(Nullable(Type.String({ maxLength: limits.filterMaxChars, description: 'Meilisearch filter expression' }))),
  facets: Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: limits.facetsMax }))),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.searchLimitMax }))),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: limits.searchWindowMax }))),
  semantic_ratio: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: limits.semanticRatioDefault })),
  matching_strategy: Type.Optional(Type.Union(MatchingStrategy.anyOf, {
    default: matchingStrategyDefault,
    description: 'Which query words a hit must contain (Meilisearch matchingStrategy). last (default): every word, then fewer, ' +
      'dropping words from the end of the query (the first word is always needed); frequency: dropping the words in the most ' +
      'documents first (the rarest are always needed); all: every word. Hits matching more words come first; totals and ' +
      'facets count every hit. As in Meilisearch, words after the tenth are ignored'
  })),
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
  }))
}, { additionalProperties: false })
export type SearchBody = Static<typeof SearchBody>

/** A catalog item as indexed; the sample fields are listed, any other field of the document is kept. */
export const SearchHit = Type.Object({
  id: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  price: Type.Optional(Type.Number()),
  category: Type.Optional(Type.String()),
  brand: Type.Optional(Type.String()),
  in_stock: Type.Optional(Type.Boolean()),
  rating: Type.Optional(Type.Number())
}, { additionalProperties: true })
export type SearchHit = Static<typeof SearchHit>

export const FacetDistribution = Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer({ minimum: 0 })))

export const SearchResponse = Type.Object({
  hits: Type.Array(SearchHit),
  query: Type.String({ description: 'The processed query that was executed' }),
  processingTimeMs: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
  estimatedTotalHits: Type.Integer({ minimum: 0 }),
  facetDistribution: Type.Optional(FacetDistribution)
})
export type SearchResponse = Static<typeof SearchResponse>

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
