import { limits, matchingStrategyDefault, type FacetHit, type MatchingStrategy } from '@chatsearch/contracts'
import type { Document, FacetSearchQuery, HybridQuery, SearchQuery, SearchResult } from '../../engine/port.js'
import type { FilterNode } from '@chatsearch/filter'
import { allowedTypos, tokenize } from '../../text.js'
import type { CatalogFile } from './catalog-file.js'
import { readMeta } from './database.js'
import type { DocSet } from './filter-index.js'
import { planLevels, type KeywordPlan } from './keyword.js'
import { Pages } from './pages.js'
import { keywordScore, rankingScore } from './ranking.js'

/**
 * What one catalog file answers, on the thread that asks: searches (their page from pages.ts, then
 * the documents, scores and facet counts), facet searches, documents by id, the count and spelling
 * corrections. Each runs as of the generation the file was last caught up with: the caller takes
 * the snapshot (see CatalogFile.snapshot) or refreshes first.
 */
export class CatalogQueries {
  readonly #catalog: CatalogFile
  readonly #pages: Pages

  constructor (catalog: CatalogFile) {
    this.#catalog = catalog
    this.#pages = new Pages(catalog)
  }

  search (query: SearchQuery): SearchResult {
    const allowed = this.#allowed(query.filter)
    const levels = this.#levels(query.q, query.matchingStrategy ?? matchingStrategyDefault)
    const window = { limit: query.limit, offset: query.offset }
    const wantMatches = query.facets.length > 0
    const page = this.#pages.read(levels, allowed, window, query.sort ?? [], query.hybrid, wantMatches)
    const hits = page.bodies?.map((body) => JSON.parse(body) as Document) ?? this.#load(page.rowids)
    const result: SearchResult = { hits, estimatedTotalHits: page.total }
    // A hybrid query answered by keyword alone (ratio 0, or no word to plan) has only keyword hits.
    if (query.hybrid !== undefined) {
      const keywordHits = page.keywordTotal ?? (levels === undefined || query.hybrid.semanticRatio === 0 ? page.total : undefined)
      if (keywordHits !== undefined) result.keywordHits = keywordHits
    }
    if (query.rankingScore === true) result.scores = this.#scores(page.rowids, levels, query.hybrid)
    if (wantMatches) {
      const facets = this.#catalog.facets()
      const matches = page.matches ?? null
      result.facetDistribution = Array.isArray(matches)
        ? facets.count(query.facets, null, matches)
        : facets.count(query.facets, matches)
    }
    return result
  }

  /** The facet's values over the matches a search's facetDistribution counts (see #matches), counted the same way. */
  facetSearch (query: FacetSearchQuery): FacetHit[] {
    const matches = query.hybrid === undefined
      ? this.#matches(query.q, query.filter, query.matchingStrategy ?? matchingStrategyDefault)
      : this.#hybridMatches(query.q, query.filter, query.matchingStrategy ?? matchingStrategyDefault, query.hybrid)
    const facets = this.#catalog.facets()
    const hits = Array.isArray(matches)
      ? facets.search(query.facet, query.facetQuery, null, matches)
      : facets.search(query.facet, query.facetQuery, matches)
    return hits.map(([value, count]) => ({ value, count }))
  }

  /** The documents with these ids that the filter allows. */
  getMany (ids: string[], filter: FilterNode | null): Document[] {
    const allowed = this.#allowed(filter)
    const rows = this.#catalog.sql('SELECT rowid, body FROM documents WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as Array<{ rowid: number, body: string }>
    return rows.filter((r) => allowed === null || allowed[r.rowid] === 1).map((r) => JSON.parse(r.body) as Document)
  }

  get (id: string): Document | undefined {
    const row = this.#catalog.sql('SELECT body FROM documents WHERE id = ?').get(id) as { body: string } | undefined
    return row === undefined ? undefined : JSON.parse(row.body) as Document
  }

  storedHashes (ids: string[]): Map<string, string> {
    // One statement for the batch: a statement per id cost 3× more.
    const rows = this.#catalog.sql('SELECT id, hash FROM documents WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(ids)) as Array<[string, string]>
    return new Map(rows)
  }

  /** Kept in the meta table by every write (a count(*) of 100k rows took up to 50 ms under load). */
  count (): number {
    const kept = readMeta(this.#catalog.db, 'count')
    return kept === undefined ? this.#catalog.countRows() : Number(kept)
  }

  /** The query with each word the vocabulary does not hold replaced by its closest term within its typos. */
  correct (query: string): string {
    const vocabulary = this.#catalog.vocabulary()
    return tokenize(query).map((word) => {
      if (vocabulary.has(word)) return word
      const [best] = vocabulary.fuzzy(word, allowedTypos(word)).sort((a, b) => a.distance - b.distance)
      return best?.term ?? word
    }).join(' ')
  }

  #allowed (filter: FilterNode | null): DocSet | null {
    return filter === null ? null : this.#catalog.filters().evaluate(filter)
  }

  /** The keyword plans of the words rule's levels (see planLevels); undefined for a browse. */
  #levels (q: string, strategy: MatchingStrategy): KeywordPlan[] | undefined {
    return planLevels(q, this.#catalog.vocabulary(), strategy, (match) => this.#pages.documentsWith(match), this.#catalog.queryRules())
  }

  /**
   * Every document a keyword search matches, as its facets count them (see search): what the
   * filter allows (null: every document) for a query without a word; otherwise the matches of the
   * words rule's last level, which hold every level's, kept by the filter. No page is read.
   */
  #matches (q: string, filter: FilterNode | null, strategy: MatchingStrategy): number[] | DocSet | null {
    const allowed = this.#allowed(filter)
    const levels = this.#levels(q, strategy)
    return levels === undefined ? allowed : this.#pages.matches(levels, allowed)
  }

  /**
   * The matches a hybrid search's facetDistribution counts (the same read as search(): the keyword
   * matches and the HYBRID_FACET_DEPTH items closest in meaning, whatever the page).
   */
  #hybridMatches (q: string, filter: FilterNode | null, strategy: MatchingStrategy, hybrid: HybridQuery): number[] | DocSet | null {
    const allowed = this.#allowed(filter)
    const levels = this.#levels(q, strategy)
    const page = this.#pages.read(levels, allowed, { limit: limits.searchLimitDefault, offset: 0 }, [], hybrid, true)
    return page.matches ?? null
  }

  /** Ranking scores in [0, 1] (see rankingScore); browsing scores every document 1. */
  #scores (rowids: number[], levels: KeywordPlan[] | undefined, hybrid: HybridQuery | undefined): number[] {
    if (levels === undefined) return rowids.map(() => 1)
    const keyword = new Map<number, number>()
    const page = JSON.stringify(rowids)
    levels.forEach((plan, level) => plan.tiers.forEach((tier, i) => {
      if (i < plan.first || keyword.size === rowids.length) return
      const matched = this.#catalog.sql('SELECT rowid FROM fts WHERE fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').pluck().all(tier, page) as number[]
      for (const rowid of matched) if (!keyword.has(rowid)) keyword.set(rowid, keywordScore(i, level, levels.length))
    }))
    if (hybrid === undefined) return rowids.map((r) => rankingScore(keyword.get(r), undefined, undefined))
    const semantic = this.#catalog.vectors().similarities(hybrid.vector, rowids)
    return rowids.map((r) => rankingScore(keyword.get(r), semantic.get(r), hybrid.semanticRatio))
  }

  #load (rowids: number[]): Document[] {
    if (rowids.length === 0) return []
    const rows = this.#catalog.sql('SELECT rowid, body FROM documents WHERE rowid IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(rowids)) as Array<{ rowid: number, body: string }>
    const byRowid = new Map(rows.map((r) => [r.rowid, r.body]))
    return rowids.map((r) => JSON.parse(byRowid.get(r)!) as Document)
  }
}
