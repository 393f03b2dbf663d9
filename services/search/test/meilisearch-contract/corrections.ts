/**
 * Slips of the generator (utoipa) that writes Meilisearch's OpenAPI document, corrected when the
 * document is loaded rather than in the file, so that a refreshed copy of the file gets them too.
 * Each one says what the server does instead, as its source (meilisearch/meilisearch) declares it.
 * A correction whose target is gone throws: after a refresh, it is either fixed upstream (delete the
 * correction) or renamed (follow it).
 */

type Schema = Record<string, unknown>
interface Document { components: { schemas: Record<string, Schema> } }

function schemaOf (document: Document, name: string): Schema {
  const schema = document.components.schemas[name]
  if (schema === undefined) throw new Error(`meilisearch-openapi.json has no components.schemas.${name} to correct`)
  return schema
}

/**
 * Objects the server deserialises with `deny_unknown_fields` (deserr): a request carrying any other
 * field is refused with a 400. The generator does not carry that attribute into the schemas.
 */
const CLOSED_OBJECTS = [
  // POST /indexes/{index_uid}/search: `SearchQuery` and its `hybrid` (`HybridQuery`), both declared
  // with `#[routes::request]`, which derives deny_unknown_fields. Not `FacetSearchQuery` (POST
  // …/facet-search): its source says it intentionally ignores unknown fields, so it stays open.
  'SearchQuery',
  'HybridQuery',
  // PATCH /indexes/{index_uid}/settings: `Settings<T>` and its nested settings objects.
  'Settings_Unchecked',
  'Settings_Checked',
  'FacetingSettings',
  'PaginationSettings',
  'TypoSettings',
  'MinWordSizeTyposSetting',
  // An embedder, in the settings and in PATCH …/settings/embedders (`SubEmbeddingSettings`, the
  // halves of a composite embedder, already says so).
  'EmbeddingSettings'
]

/** Meilisearch's OpenAPI document with the generator's known slips corrected (in place). */
export function correct<D extends Document> (document: D): D {
  // `AttributePatterns` is `#[serde(transparent)]` over a list of patterns: on the wire it is an array
  // of strings (`"facets": ["brand", "price"]`), not the `{ patterns: [...] }` object the generator
  // shows. SearchQuery.facets refers to it.
  const patterns = schemaOf(document, 'AttributePatterns')
  delete patterns.required
  delete patterns.properties
  Object.assign(patterns, { type: 'array', items: { type: 'string' } })

  // `SettingEmbeddingSettings` is a transparent wrapper of `Setting<EmbeddingSettings>`: an embedder's
  // settings, or null to remove that embedder. The generator shows the wrapper's field (`inner`) as
  // if it were sent. PATCH and GET …/settings/embedders refer to it.
  const embedderSetting = schemaOf(document, 'SettingEmbeddingSettings')
  for (const key of Object.keys(embedderSetting)) if (key !== 'description') delete embedderSetting[key]
  embedderSetting.oneOf = [{ type: 'null' }, { $ref: '#/components/schemas/EmbeddingSettings' }]

  for (const name of CLOSED_OBJECTS) schemaOf(document, name).additionalProperties = false
  return document
}
