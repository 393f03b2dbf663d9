import type { DocumentsQuery, Index, Meilisearch, RecordAny } from 'meilisearch'
import type { FacetHit } from '@chatsearch/contracts'
import { PHRASE_ATTRIBUTES } from '../../engine/phrases.js'
import type {
  Document, EngineIndex, FacetSearchQuery, IndexSettings, PopularSearches, PreparedDocument, RecordedSearch, SearchQuery, SearchResult
} from '../../engine/port.js'
import { newSearcherKey, searcherHash } from '../../engine/searchers.js'
import { appliedSettings, completeSettings, inferSettings, searchStatus, suggestionRules, type SuggestionRules } from '../../engine/settings.js'
import { conditions, type FilterNode } from '@chatsearch/filter'
import { foldQuery } from '../../text.js'
import { hasCode } from './errors.js'
import { IndexCalls, SETTINGS_TTL_MS } from './writes.js'
import {
  pageOfSuggestions, phraseChanges, popularSearchOf, suggestionId, suggestionSearch, weighed, withItems, withSearch, type Suggestion, type SuggestionHit
} from './suggestions.js'
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
 * returns filterable attributes sorted rather than as given), which embedder's vectors the index
 * holds, and the catalog's key for its searchers' hashes (hex; absent until the first search is
 * counted with its searcher). Kept as one document of the suggestions index, which the suggestions
 * never match (weight 0).
 */
interface Meta { settings: IndexSettings, embedder: string, searcherKey?: string }
const META_ID = '_settings'
/** Completions read and written at a time when they are all weighed again. */
const REWEIGH_PAGE = 1000
/** Completions that were searched for: what the console lists, and what a change of autocomplete's rules weighs again. */
const SEARCHED = 'searches > 0'
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
  /** Searches to count, by folded query, written together by the next write. */
  #searches = new Map<string, RecordedSearch[]>()

  constructor (context: IndexContext) {
    this.#context = context
    this.#calls = new IndexCalls(context.taskTimeoutMs)
    this.#catalog = context.client.index(context.catalogUid)
    this.#suggestions = context.client.index(context.suggestionsUid)
  }

  async settings (): Promise<IndexSettings> {
    return await this.#calls.call(async () => completeSettings((await this.#readMeta())?.settings ?? NO_SETTINGS()))
  }

  /** Applies the settings; when autocomplete's rules change, the completions searched for are weighed again under them. */
  async updateSettings (settings: IndexSettings): Promise<IndexSettings> {
    const applied = appliedSettings(settings)
    return await this.#calls.serial(async () => {
      const meta = await this.#readMeta()
      await this.#configure(applied, meta === undefined)
      await this.#writeMeta({ ...meta, settings: applied, embedder: meta?.embedder ?? 'none' })
      const [before, after] = [suggestionRules(meta?.settings ?? {}), suggestionRules(applied)]
      const rulesChanged = before.minSearchers !== after.minSearchers || JSON.stringify(before.excluded) !== JSON.stringify(after.excluded)
      if (meta !== undefined && rulesChanged) await this.#reweigh(after)
      return applied
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
      const stored = prepared.map((p) => storedDocument(p.document, p.hash ?? '', embedder, p.vector))
      await this.#calls.settle(this.#catalog.addDocuments(stored))
      await this.#countPhrases(before, prepared.map((p) => p.document), async () => suggestionRules(meta.settings))
      return { indexed: prepared.length }
    })
  }

  async remove (id: string): Promise<boolean> {
    if (!DOCUMENT_ID.test(id)) return false
    return await this.#calls.serial(async () => {
      const before = await this.#fetch(this.#catalog, [id], ['id', ...PHRASE_ATTRIBUTES])
      if (before.length === 0) return false
      await this.#calls.settle(this.#catalog.deleteDocument(id))
      await this.#countPhrases(before, [], async () => suggestionRules((await this.#readMeta())?.settings ?? {}))
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
      const result = searchResult(await this.#catalog.search(params.q, params), query)
      // Meilisearch tells nothing of a hybrid search's keyword side (#checkedHits looks it up later,
      // when it matters); a hybrid query sent as a keyword search has only keyword hits.
      if (query.hybrid !== undefined && params.hybrid === undefined) result.keywordHits = result.estimatedTotalHits
      return result
    })
  }

  async facetSearch (query: FacetSearchQuery): Promise<FacetHit[]> {
    return await this.#calls.call(async () => {
      const meta = await this.#readMeta()
      if (meta === undefined) return []
      await this.#readyFor(query.filter)
      // As search(): items without vectors of this embedder are counted by their keywords alone.
      const vectors = meta.embedder === this.#context.embedder.id
      return facetHits(await this.#catalog.searchForFacetValues(facetSearchParams(vectors ? query : { ...query, hybrid: undefined })))
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

  async recordQuery (query: string, search: RecordedSearch): Promise<void> {
    const folded = foldQuery(query)
    if (folded === '') return
    const seen = this.#searches.get(folded)
    if (seen === undefined) this.#searches.set(folded, [search])
    else seen.push(search)
    // The first write to run takes every search counted until then; the ones after find none.
    await this.#calls.serial(() => this.#writeSearches())
  }

  async popularSearches (limit: number, offset: number): Promise<PopularSearches> {
    return await this.#calls.call(async () => {
      if (await this.#readMeta() === undefined) return { searches: [], total: 0 }
      const { results, total } = await this.#searched({ filter: SEARCHED, sort: ['searches:desc'], fields: ['text', 'searches', 'lastHits', 'searchers'], limit, offset })
      // The filter's condition again: a document never searched for (the settings document) is no popular search.
      return { searches: results.filter((s) => s.searches > 0).map(popularSearchOf), total }
    })
  }

  async #writeSearches () {
    const searches = this.#searches
    this.#searches = new Map()
    // Before the first import there is no suggestions index to count into.
    const meta = await this.#readMeta()
    if (searches.size === 0 || meta === undefined) return
    const rules = suggestionRules(meta.settings)
    const key = await this.#searcherKey(meta, rules)
    const current = await this.#suggestionsById([...searches.keys()].map(suggestionId))
    const updated: Suggestion[] = []
    for (const [folded, made] of searches) {
      let suggestion = current.get(suggestionId(folded))
      for (const { keywordHits, searcher } of made) suggestion = withSearch(suggestion, folded, { keywordHits, searcher: searcherHash(key, searcher).toString('hex') }, rules)
      updated.push(await this.#checkedHits(suggestion!, rules))
    }
    await this.#calls.settle(this.#suggestions.addDocuments(updated))
  }

  /**
   * The catalog's key for its searchers' hashes, made the first time a search is counted with its
   * searcher. Completions searched for before then were weighed without searchers: they are weighed
   * again first, and no search counted by one searcher is still suggested. Two instances making the
   * key at once may each count a few searchers under their own, which only counts them twice.
   */
  async #searcherKey (meta: Meta, rules: SuggestionRules): Promise<Buffer> {
    if (meta.searcherKey !== undefined) return Buffer.from(meta.searcherKey, 'hex')
    const key = newSearcherKey()
    await this.#reweigh(rules)
    await this.#writeMeta({ ...meta, searcherKey: key.toString('hex') })
    return key
  }

  /**
   * The completion with its keyword hits known when they decide whether it is suggested: a search
   * made only as hybrid (whose keyword side Meilisearch does not count) that now has enough
   * searchers and is not excluded is looked up once, by a keyword search of it for no hits (its
   * total alone), without filter, with the default matching strategy.
   */
  async #checkedHits (suggestion: Suggestion, rules: SuggestionRules): Promise<Suggestion> {
    const search = popularSearchOf(suggestion)
    if (search.hits !== null || searchStatus(search, rules) === 'excluded' || search.searchers < rules.minSearchers) return suggestion
    const query: SearchQuery = { q: search.query, filter: null, facets: [], limit: 0, offset: 0 }
    const params = searchParams(query)
    const { estimatedTotalHits } = searchResult(await this.#catalog.search(params.q, params), query)
    return weighed({ ...suggestion, lastHits: estimatedTotalHits }, rules)
  }

  /**
   * Weighs again every completion searched for under the catalog's rules (after they changed, or once
   * for completions counted before searchers were), writing those whose weight changed.
   */
  async #reweigh (rules: SuggestionRules) {
    for (let offset = 0; ; offset += REWEIGH_PAGE) {
      const { results } = await this.#searched({ filter: SEARCHED, limit: REWEIGH_PAGE, offset })
      // The filter already leaves out what was never searched for (the settings document among them).
      const changed = results.filter((s) => s.searches > 0).map((s) => [s.weight, weighed(s, rules)] as const)
        .filter(([before, after]) => before !== after.weight).map(([, after]) => after)
      if (changed.length > 0) await this.#calls.settle(this.#suggestions.addDocuments(changed))
      if (results.length < REWEIGH_PAGE) return
    }
  }

  /**
   * Completions read by a filter on `searches` (and sorted by it). A suggestions index made before
   * that was possible refuses it: it is given SUGGESTIONS_SETTINGS (Meilisearch re-indexes it) and
   * read again.
   */
  async #searched (query: DocumentsQuery<Suggestion>): Promise<{ results: Suggestion[], total: number }> {
    const read = async () => {
      const page = await this.#suggestions.getDocuments<Suggestion>(query)
      return { results: page.results, total: page.total }
    }
    try {
      return await read()
    } catch (err) {
      if (hasCode(err, 'index_not_found')) return { results: [], total: 0 }
      if (!hasCode(err, 'invalid_document_filter') && !hasCode(err, 'invalid_document_sort')) throw err
      await this.#calls.settle(this.#suggestions.updateSettings(SUGGESTIONS_SETTINGS))
      return await read()
    }
  }

  /**
   * Items carrying each catalog phrase, after `before` documents became `after`. The catalog's rules
   * weigh a phrase's searches: they are read only when one of the phrases was searched for.
   */
  async #countPhrases (before: RecordAny[], after: Document[], rulesOf: () => Promise<SuggestionRules>) {
    const changes = phraseChanges(before, after)
    if (changes.size === 0) return
    const current = await this.#suggestionsById([...changes.keys()].map(suggestionId))
    const rules = [...current.values()].some((s) => s.searches > 0) ? await rulesOf() : suggestionRules({})
    const put: Suggestion[] = []
    const drop: string[] = []
    for (const [folded, { phrase, delta }] of changes) {
      const id = suggestionId(folded)
      const next = withItems(current.get(id), folded, phrase, delta, rules)
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
      if (typeof stored.searcherKey === 'string') value.searcherKey = stored.searcherKey
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
