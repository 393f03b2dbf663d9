import type { Index, Meilisearch, RecordAny } from 'meilisearch'
import type { FacetHit } from '@chatsearch/contracts'
import { documentHash } from '../../engine/hash.js'
import { PHRASE_ATTRIBUTES } from '../../engine/phrases.js'
import type { Document, EngineIndex, FacetSearchQuery, IndexSettings, PreparedDocument, SearchQuery, SearchResult } from '../../engine/port.js'
import { completeSettings, inferSettings } from '../../engine/settings.js'
import { conditions, type FilterNode } from '../../filter/index.js'
import { hasCode } from './errors.js'
import { IndexCalls, SETTINGS_TTL_MS } from './writes.js'
import { foldQuery, pageOfSuggestions, phraseChanges, suggestionId, suggestionSearch, withItems, withSearch, type Suggestion, type SuggestionHit } from './suggestions.js'
import {
  BOOKKEEPING, catalogSettings, cleanDocument, documentsFetch, embedderSettings, emptyResult, facetHits, facetSearchParams, searchParams, searchResult, storedDocument, storedHash,
  SUGGESTIONS_SETTINGS, wordSettings
} from './translate.js'

export interface IndexContext {
  client: Meilisearch
  /** The index of the catalog's items, and the one of its completions and settings. */
  catalogUid: string
  suggestionsUid: string
  /** The model whose vectors this engine writes ('none': embeddings off). */
  embedder: { id: string, dimensions: number }
  /** How long a write may take before the caller gets a 503. */
  taskTimeoutMs: number
  /** Resolves once Meilisearch accepts CONTAINS and STARTS WITH in filters (see the engine). */
  containsFilter: () => Promise<void>
}

/**
 * What Meilisearch cannot keep for us: the port's settings (Meilisearch has no "facetable", and it
 * returns filterable attributes sorted rather than as given) and which embedder's vectors the index
 * holds. Kept as one document of the suggestions index, which the suggestions never match (weight 0).
 */
interface Meta { settings: IndexSettings, embedder: string }
const META_ID = '_settings'
/** Documents fetched by id per request (the ids travel in the URL). */
const FETCH_CHUNK = 100
/**
 * What a stored item's id can be (ingestion checks it, Meilisearch requires it). Any other id names
 * no item, and must not reach the client: it puts the id into the request path unencoded, and
 * `../../keys` would read another route.
 */
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,511}$/
const NO_SETTINGS = (): IndexSettings => ({ searchableAttributes: [], filterableAttributes: [], facetableAttributes: [], sortableAttributes: [], synonyms: {}, stopWords: [] })

/** One project's catalog on Meilisearch: its items' index and its suggestions index. */
export class MeilisearchIndex implements EngineIndex {
  readonly #context: IndexContext
  readonly #calls: IndexCalls
  readonly #catalog: Index
  readonly #suggestions: Index
  #meta: { value: Meta | undefined, at: number } | undefined
  /** Writes of this index, one after the other: weights are read, changed and written back. */
  /** Searches to count, each with the hits it had, written together by the next write. */
  #searches = new Map<string, number[]>()

  constructor (context: IndexContext) {
    this.#context = context
    this.#calls = new IndexCalls(context.taskTimeoutMs)
    this.#catalog = context.client.index(context.catalogUid)
    this.#suggestions = context.client.index(context.suggestionsUid)
  }

  async settings (): Promise<IndexSettings> {
    return await this.#calls.call(async () => completeSettings((await this.#readMeta())?.settings ?? NO_SETTINGS()))
  }

  async updateSettings (settings: IndexSettings): Promise<IndexSettings> {
    const complete = completeSettings(settings)
    return await this.#calls.serial(async () => {
      const meta = await this.#readMeta()
      await this.#configure(complete, meta === undefined)
      await this.#writeMeta({ settings: complete, embedder: meta?.embedder ?? 'none' })
      return complete
    })
  }

  async upsert (prepared: PreparedDocument[]): Promise<{ indexed: number }> {
    return await this.#calls.serial(async () => {
      const embedder = this.#context.embedder.id
      const known = await this.#readMeta()
      let meta = known ?? { settings: inferSettings(prepared.map((p) => p.document)), embedder: 'none' }
      if (known === undefined) await this.#configure(meta.settings, true)
      // An embedded batch (vectors, or null for items whose text means nothing) needs our embedder declared.
      if (prepared.some((p) => p.vector !== undefined) && meta.embedder !== embedder) {
        await this.#useEmbedder(meta.embedder !== 'none')
        meta = { ...meta, embedder }
      }
      if (meta !== known) await this.#writeMeta(meta)
      const before = await this.#fetch(this.#catalog, prepared.map((p) => p.document.id), ['id', ...PHRASE_ATTRIBUTES])
      const stored = prepared.map((p) => storedDocument(p.document, p.hash ?? documentHash(p.document), embedder, p.vector))
      await this.#calls.settle(this.#catalog.addDocuments(stored))
      await this.#countPhrases(before, prepared.map((p) => p.document))
      return { indexed: prepared.length }
    })
  }

  async remove (id: string): Promise<boolean> {
    if (!DOCUMENT_ID.test(id)) return false
    return await this.#calls.serial(async () => {
      const before = await this.#fetch(this.#catalog, [id], ['id', ...PHRASE_ATTRIBUTES])
      if (before.length === 0) return false
      await this.#calls.settle(this.#catalog.deleteDocument(id))
      await this.#countPhrases(before, [])
      return true
    })
  }

  async get (id: string): Promise<Document | undefined> {
    if (!DOCUMENT_ID.test(id)) return undefined
    return await this.#calls.call(async () => {
      try {
        return cleanDocument(await this.#catalog.getDocument(id))
      } catch (err) {
        if (hasCode(err, 'document_not_found') || hasCode(err, 'index_not_found')) return undefined
        throw err
      }
    })
  }

  async getMany (ids: string[], filter: FilterNode | null): Promise<Document[]> {
    const wanted = [...new Set(ids.filter((id) => DOCUMENT_ID.test(id)))]
    if (wanted.length === 0) return []
    return await this.#calls.call(async () => {
      if (await this.#readMeta() === undefined) return []
      await this.#readyFor(filter)
      const out: Document[] = []
      for (let i = 0; i < wanted.length; i += FETCH_CHUNK) {
        const page = await this.#catalog.getDocuments<RecordAny>(documentsFetch(wanted.slice(i, i + FETCH_CHUNK), filter))
        out.push(...page.results.map(cleanDocument))
      }
      return out
    })
  }

  async count (): Promise<number> {
    return await this.#calls.call(async () => {
      try {
        return (await this.#catalog.getStats()).numberOfDocuments
      } catch (err) {
        if (hasCode(err, 'index_not_found')) return 0
        throw err
      }
    })
  }

  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    return await this.#calls.call(async () => {
      const out = new Map<string, string>()
      for (const stored of await this.#fetch(this.#catalog, ids, ['id', BOOKKEEPING])) {
        const hash = storedHash(stored, this.#context.embedder.id)
        if (hash !== undefined) out.set(String(stored.id), hash)
      }
      return out
    })
  }

  async search (query: SearchQuery): Promise<SearchResult> {
    return await this.#calls.call(async () => {
      const meta = await this.#readMeta()
      if (meta === undefined) return emptyResult(query)
      await this.#readyFor(query.filter)
      // Items written before embeddings were on (or by another model) have no vector here: the
      // keyword side alone answers, as the embedded engine's semantic side would find nothing.
      const vectors = meta.embedder === this.#context.embedder.id
      const params = searchParams(vectors ? query : { ...query, hybrid: undefined })
      return searchResult(await this.#catalog.search(params.q, params), query)
    })
  }

  async facetSearch (query: FacetSearchQuery): Promise<FacetHit[]> {
    return await this.#calls.call(async () => {
      if (await this.#readMeta() === undefined) return []
      await this.#readyFor(query.filter)
      return facetHits(await this.#catalog.searchForFacetValues(facetSearchParams(query)))
    })
  }

  /** Waits until Meilisearch accepts the filter's operators: CONTAINS and STARTS WITH need an experimental feature. */
  async #readyFor (filter: FilterNode | null) {
    if (filter !== null && conditions(filter).some((c) => c.type === 'contains' || c.type === 'startsWith')) {
      await this.#context.containsFilter()
    }
  }

  async suggest (term: string, limit: number, offset: number): Promise<string[]> {
    const folded = foldQuery(term)
    if (folded === '') return []
    return await this.#calls.call(async () => {
      if (await this.#readMeta() === undefined) return []
      return await pageOfSuggestions(async (window) => (await this.#suggestions.search<SuggestionHit>(folded, suggestionSearch(window))).hits, offset, limit)
    })
  }

  /**
   * Returned unchanged: Meilisearch gives no access to an index's terms (the embedded engine
   * corrects against its own vocabulary), and its keyword side forgives the typos anyway.
   */
  async correct (query: string): Promise<string> {
    return query
  }

  async recordQuery (query: string, hits: number): Promise<void> {
    const folded = foldQuery(query)
    if (folded === '') return
    const seen = this.#searches.get(folded)
    if (seen === undefined) this.#searches.set(folded, [hits])
    else seen.push(hits)
    // The first write to run takes every search counted until then; the ones after find none.
    await this.#calls.serial(() => this.#writeSearches())
  }

  async #writeSearches () {
    const searches = this.#searches
    this.#searches = new Map()
    // Before the first import there is no suggestions index to count into.
    if (searches.size === 0 || await this.#readMeta() === undefined) return
    const current = await this.#suggestionsById([...searches.keys()].map(suggestionId))
    const updated = [...searches].map(([folded, hitsList]) => {
      let suggestion = current.get(suggestionId(folded))
      for (const hits of hitsList) suggestion = withSearch(suggestion, folded, hits)
      return suggestion!
    })
    await this.#calls.settle(this.#suggestions.addDocuments(updated))
  }

  /** Items carrying each catalog phrase, after `before` documents became `after`. */
  async #countPhrases (before: RecordAny[], after: Document[]) {
    const changes = phraseChanges(before, after)
    if (changes.size === 0) return
    const current = await this.#suggestionsById([...changes.keys()].map(suggestionId))
    const put: Suggestion[] = []
    const drop: string[] = []
    for (const [folded, { phrase, delta }] of changes) {
      const id = suggestionId(folded)
      const next = withItems(current.get(id), folded, phrase, delta)
      if (next !== null) put.push(next)
      else if (current.has(id)) drop.push(id)
    }
    if (put.length > 0) await this.#calls.settle(this.#suggestions.addDocuments(put))
    if (drop.length > 0) await this.#calls.settle(this.#suggestions.deleteDocuments(drop))
  }

  async #suggestionsById (ids: string[]): Promise<Map<string, Suggestion>> {
    return new Map((await this.#fetch(this.#suggestions, ids)).map((s) => [String(s.id), s as Suggestion]))
  }

  /** Stored documents with these ids (those that exist), with only `fields` when given. */
  async #fetch (index: Index, ids: string[], fields?: string[]): Promise<RecordAny[]> {
    const out: RecordAny[] = []
    try {
      for (let i = 0; i < ids.length; i += FETCH_CHUNK) {
        const chunk = ids.slice(i, i + FETCH_CHUNK)
        const page = await index.getDocuments<RecordAny>({ ids: chunk, limit: chunk.length, ...(fields === undefined ? {} : { fields }) })
        out.push(...page.results)
      }
    } catch (err) {
      if (hasCode(err, 'index_not_found')) return []
      throw err
    }
    return out
  }

  /**
   * Creates the indexes (a fresh catalog) and applies the settings, the synonyms and stop words to
   * the suggestions index too (autocomplete reads a term with them); Meilisearch re-indexes.
   */
  async #configure (settings: IndexSettings, fresh: boolean) {
    if (fresh) {
      // Meilisearch would guess the primary key from the first documents, and refuses to when an
      // item has more than one field ending in "id".
      for (const uid of [this.#context.catalogUid, this.#context.suggestionsUid]) {
        await this.#calls.settle(this.#context.client.createIndex(uid, { primaryKey: 'id' }), 'index_already_exists')
      }
      await this.#calls.settle(this.#suggestions.updateSettings(SUGGESTIONS_SETTINGS))
    }
    await this.#calls.settle(this.#catalog.updateSettings(catalogSettings(settings)))
    await this.#calls.settle(this.#suggestions.updateSettings(wordSettings(settings)))
  }

  /** Declares our embedder; vectors of another one are dropped first (its items get re-embedded). */
  async #useEmbedder (replace: boolean) {
    if (replace) await this.#calls.settle(this.#catalog.resetEmbedders())
    await this.#calls.settle(this.#catalog.updateEmbedders(embedderSettings(this.#context.embedder.dimensions)))
  }

  async #readMeta (): Promise<Meta | undefined> {
    if (this.#meta !== undefined && Date.now() - this.#meta.at < SETTINGS_TTL_MS) return this.#meta.value
    let value: Meta | undefined
    try {
      const stored = await this.#suggestions.getDocument(META_ID)
      value = { settings: stored.settings as IndexSettings, embedder: String(stored.embedder) }
    } catch (err) {
      if (!hasCode(err, 'document_not_found') && !hasCode(err, 'index_not_found')) throw err
    }
    this.#meta = { value, at: Date.now() }
    return value
  }

  async #writeMeta (meta: Meta) {
    await this.#calls.settle(this.#suggestions.addDocuments([{ id: META_ID, weight: 0, ...meta }]))
    this.#meta = { value: meta, at: Date.now() }
  }
}
