import { Type, type Static } from 'typebox'

const Attribute = Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\s]+$' })
const Attributes = (description: string) => Type.Array(Attribute, { maxItems: 200, uniqueItems: true, description })

/** Index settings of a project's catalog, named as in Meilisearch. */
export const CatalogSettings = Type.Object({
  searchableAttributes: Attributes('Attributes searched by keyword, highest priority first'),
  filterableAttributes: Attributes('Attributes the `filters` expression may use'),
  facetableAttributes: Attributes('Attributes `facets` may ask counts for'),
  // Optional: settings written before sorting existed, and clients that never sort, send three lists.
  // Absent is none, as Meilisearch's default; GET /settings always shows it.
  sortableAttributes: Type.Optional(Attributes('Attributes `sort` may order by (absent: none)'))
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
