import { Type, type Static } from 'typebox'
import { limits } from './limits.js'

const Attribute = Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\s]+$' })
const Attributes = (description: string) => Type.Array(Attribute, { maxItems: 200, uniqueItems: true, description })
// No line break: besides meaning nothing in a query, a key holding one would escape the record's
// `^.*$` pattern, and with it the check of its alternatives.
const SynonymText = Type.String({ minLength: 1, maxLength: limits.synonymMaxChars, pattern: '^[^\\r\\n\\u2028\\u2029]+$' })

/**
 * Meilisearch's synonyms: a word or phrase mapped to the words or phrases that may stand for it in a
 * query. One-way, as written. Word counts (a key of at most synonymKeyWordsMax words, stop words left
 * out; something to match in every key and alternative) depend on how search splits text: PUT /settings
 * checks them (400 invalid_request).
 */
export const Synonyms = Type.Record(Type.String(), Type.Array(SynonymText, { maxItems: limits.synonymAlternativesMax, uniqueItems: true }), {
  maxProperties: limits.synonymsMax,
  propertyNames: SynonymText,
  description: `Extension (Meilisearch synonyms): a word or phrase (at most ${limits.synonymKeyWordsMax} words) → up to ` +
    `${limits.synonymAlternativesMax} words or phrases a query may find instead of it, one-way (write both ways for mutual ` +
    'synonyms); matched ignoring case and accents, a phrase as a phrase. Applied to keyword search, the keyword side of ' +
    'a hybrid search and autocomplete (absent: none)',
  examples: [{ phone: ['smartphone', 'mobile'], 'tee shirt': ['t-shirt'] }]
})
export type Synonyms = Static<typeof Synonyms>

export const StopWords = Type.Array(Type.String({ minLength: 1, maxLength: limits.stopWordMaxChars }), {
  maxItems: limits.stopWordsMax,
  uniqueItems: true,
  description: 'Extension (Meilisearch stopWords): words a query ignores, except as its last word (it may still be ' +
    'typed, and matches as a prefix); each one word, matched ignoring case and accents (absent: none)',
  examples: [['the', 'a', 'of', 'for']]
})

/**
 * How many distinct searchers a search needs before autocomplete suggests it (ours, not
 * Meilisearch's): a searcher is the request's consumer_id, or its client address without one.
 */
export const SuggestionsMinSearchers = Type.Integer({
  minimum: 1,
  maximum: limits.suggestionsMinSearchersMax,
  description: 'Extension: autocomplete suggests a popular search only once this many distinct searchers (the consumer_id, ' +
    'or the client address of a search without one) made it and its keyword results were not empty ' +
    `(absent: ${limits.suggestionsMinSearchersDefault}; 1 suggests any search that found something)`,
  examples: [limits.suggestionsMinSearchersDefault]
})

/** Searches autocomplete never suggests, whoever makes them. */
export const SuggestionsExcluded = Type.Array(Type.String({ minLength: 1, maxLength: limits.termMaxChars }), {
  maxItems: limits.suggestionsExcludedMax,
  uniqueItems: true,
  description: 'Extension: searches autocomplete never suggests (GET /suggestions/candidates lists those it could). Kept as ' +
    'popular searches are counted: lower case, without accents, white space collapsed. A catalog phrase of the same ' +
    'text (a title, a brand) is still suggested (absent: none)',
  examples: [['free money']]
})

/** Index settings of a project's catalog, named as in Meilisearch. */
export const CatalogSettings = Type.Object({
  searchableAttributes: Attributes('Attributes searched by keyword, highest priority first'),
  filterableAttributes: Attributes('Attributes the `filters` expression may use'),
  facetableAttributes: Attributes('Attributes `facets` may ask counts for'),
  // Optional: settings written before sorting existed, and clients that never sort, send three lists.
  // Absent is none, as Meilisearch's default; GET /settings always shows it.
  sortableAttributes: Type.Optional(Attributes('Attributes `sort` may order by (absent: none)')),
  // Optional as well, for the same clients; absent is none, Meilisearch's defaults ({} and []).
  synonyms: Type.Optional(Synonyms),
  stopWords: Type.Optional(StopWords),
  // Ours, optional for the same clients. Changing only these re-indexes nothing.
  suggestionsMinSearchers: Type.Optional(SuggestionsMinSearchers),
  suggestionsExcluded: Type.Optional(SuggestionsExcluded)
}, { additionalProperties: false })
export type CatalogSettings = Static<typeof CatalogSettings>

/**
 * What a document id may be, catalog item or knowledge document alike (as in Meilisearch): a string of
 * letters, digits, `-` and `_`, or a non-negative integer (kept as its decimal string).
 */
export const DOCUMENT_ID_PATTERN = '^[A-Za-z0-9_-]{1,511}$'

/** A catalog item: any JSON object whose `id` is a string or a non-negative integer. */
export const CatalogDocument = Type.Object({
  id: Type.Union([Type.String(), Type.Integer()])
}, { additionalProperties: true })
export type CatalogDocument = Static<typeof CatalogDocument>

export const DocumentsBody = Type.Array(Type.Unknown(), { description: 'Items to add or replace by id; also accepted as NDJSON (application/x-ndjson)' })

export const DocumentsResponse = Type.Object({
  received: Type.Integer({ minimum: 0 }),
  indexed: Type.Integer({ minimum: 0, description: 'New or changed items written' }),
  unchanged: Type.Integer({ minimum: 0, description: 'Items identical to the stored ones, skipped' }),
  total: Type.Integer({ minimum: 0, description: 'Items in the catalog afterwards' })
}, { additionalProperties: false })
export type DocumentsResponse = Static<typeof DocumentsResponse>

export const DocumentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 511 })
})
export type DocumentParams = Static<typeof DocumentParams>

export const DeletedResponse = Type.Object({
  id: Type.String(),
  deleted: Type.Literal(true)
}, { additionalProperties: false })
