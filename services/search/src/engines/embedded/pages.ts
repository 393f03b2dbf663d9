import type { HybridQuery, SortCriterion } from '../../engine/port.js'
import type { CatalogFile } from './catalog-file.js'
import type { DocSet } from './filter-index.js'
import type { KeywordPlan } from './keyword.js'
import { bm25, bySortRanks, HYBRID_FACET_DEPTH, hybridDepth, keywordOrder, keywordTier, levelWeight, mergeByRank, sortKeys, sortRanks, UNSORTED } from './ranking.js'

export interface Window { limit: number, offset: number }

/**
 * A page of results, the total, and (when facets need them) every match: as a list of rowids, or as
 * a set; null: all documents.
 */
export interface Page { rowids: number[], total: number, matches?: number[] | DocSet | null, bodies?: string[], levels?: number[], keywordTotal?: number }
const NOTHING: Page = { rowids: [], total: 0 }

/** FTS5 expressions whose number of documents is remembered at most (see documentsWith). */
const COUNTED_EXPRESSIONS = 2000
/** Sort criteria whose ranks are remembered at most (see #ranksOf): an array of 4 bytes per document each. */
const RANKED_CRITERIA = 16

/** Values computed from the catalog, by key, remembered until its generation changes (or `max` are, then forgotten all at once). */
class UntilChange<V> {
  readonly #max: number
  #generation: string | undefined
  readonly #values = new Map<string, V>()

  constructor (max: number) {
    this.#max = max
  }

  get (generation: string | undefined, key: string, compute: () => V): V {
    if (generation !== this.#generation || this.#values.size >= this.#max) {
      this.#generation = generation
      this.#values.clear()
    }
    let value = this.#values.get(key)
    if (value === undefined) {
      value = compute()
      this.#values.set(key, value)
    }
    return value
  }
}

/**
 * A search's page in ranking order (the rules are ranking.ts's) and its total, read from one catalog
 * file: a browse, the keyword matches level by level, or the keyword and semantic orders merged. The
 * SQL functions keep(rowid) and sort_rank(rowid, i), defined on the file's connection here, answer
 * from the search being read (see #keeping, #sortingBy).
 */
export class Pages {
  readonly #catalog: CatalogFile
  /** What keep(rowid) answers from during one statement (see #keeping): the allowed set (null: all), and the kept rowids. */
  #allowed: DocSet | null = null
  #kept: number[] = []
  /** What sort_rank(rowid, i) answers from during one search: the ranks of its sort criteria (see #ranksOf). */
  #sorting: Int32Array[] = []
  /** Documents per FTS5 expression. */
  readonly #counts = new UntilChange<number>(COUNTED_EXPRESSIONS)
  /** Ranks per sort criterion (`order:attribute`). */
  readonly #ranks = new UntilChange<Int32Array>(RANKED_CRITERIA)

  constructor (catalog: CatalogFile) {
    this.#catalog = catalog
    catalog.db.function('keep', { deterministic: false }, (rowid) => {
      const r = Number(rowid)
      if (this.#allowed !== null && this.#allowed[r] !== 1) return 0
      this.#kept.push(r)
      return 1
    })
    catalog.db.function('sort_rank', { deterministic: false }, (rowid, criterion) => this.#sorting[Number(criterion)]?.[Number(rowid)] ?? UNSORTED)
  }

  /**
   * The page of a search: a browse when it has no word to match (`levels` undefined), the keyword
   * matches when it is not hybrid or its semantic ratio is 0, else both merged; ordered by `sort`
   * where ranking.ts says the sort rule applies. `wantMatches`: every match too, for facets.
   */
  read (levels: KeywordPlan[] | undefined, allowed: DocSet | null, window: Window, sort: SortCriterion[], hybrid: HybridQuery | undefined, wantMatches: boolean): Page {
    return this.#sortingBy(sort, (): Page => {
      if (levels === undefined) return this.#browse(allowed, window)
      if (hybrid === undefined || hybrid.semanticRatio === 0) return this.#keyword(levels, allowed, window, wantMatches, true)
      return this.#hybrid(levels, allowed, window, hybrid, wantMatches)
    })
  }

  /**
   * Every document the keyword matches of `levels` hold, kept by the filter: the matches of the
   * words rule's last level, which hold every level's.
   */
  matches (levels: KeywordPlan[], allowed: DocSet | null): number[] {
    return this.#matchesOf(levels.at(-1)!.tiers.at(-1)!, allowed)
  }

  /**
   * How many documents an FTS5 expression matches, remembered until the catalog changes (or that
   * many expressions are): a search whose every word fills its page still counts the matches of the
   * words rule's last level (most often the query's first word, shared by many queries) for its
   * total, and the frequency strategy counts each word's.
   */
  documentsWith (match: string): number {
    return this.#counts.get(this.#catalog.generation, match, () => this.#catalog.sql('SELECT count(*) FROM fts WHERE fts MATCH ?').pluck().get(match) as number)
  }

  /** The documents an FTS5 expression matches that `allowed` keeps (every one when null), in the order SQLite met them. */
  #matchesOf (match: string, allowed: DocSet | null): number[] {
    return this.#keeping(allowed, () => this.#catalog.sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND keep(rowid)').pluck().get(match)).kept
  }

  /**
   * Runs `work` with the SQL function keep(rowid) answering from `set` (every row when null) and
   * returns what it returned with the rowids kept, in the order SQLite asked about them.
   */
  #keeping<T> (set: DocSet | null, work: () => T): { result: T, kept: number[] } {
    this.#allowed = set
    this.#kept = []
    try {
      return { result: work(), kept: this.#kept }
    } finally {
      this.#allowed = null
      this.#kept = []
    }
  }

  /**
   * Runs `work` with sort_rank(rowid, i), in the keyword statements, and a browse answering from the
   * ranks of `sort`'s criteria (ranking.ts says where the sort rule applies).
   */
  #sortingBy<T> (sort: SortCriterion[], work: () => T): T {
    this.#sorting = this.#ranksOf(sort)
    try {
      return work()
    } finally {
      this.#sorting = []
    }
  }

  /**
   * Ranks of each sort criterion (see sortRanks), remembered until the catalog changes (or that many
   * criteria are): a shop sorts by the same few attributes again and again.
   */
  #ranksOf (sort: SortCriterion[]): Int32Array[] {
    return sort.map(({ attribute, order }) => this.#ranks.get(this.#catalog.generation, `${order}:${attribute}`, () => {
      const filters = this.#catalog.filters()
      return sortRanks(filters.sortValues(attribute), filters.universe().length, order === 'desc')
    }))
  }

  /**
   * Browsing: documents in the order they were added, or, with a sort, in its order (ties in the
   * order they were added). `allowed` null stands for every document.
   */
  #browse (allowed: DocSet | null, window: Window): Page {
    if (this.#sorting.length > 0) return this.#sortedBrowse(allowed, window)
    const { limit, offset } = window
    const { sql } = this.#catalog
    if (allowed === null) {
      const rowids = sql('SELECT rowid FROM documents ORDER BY rowid LIMIT ? OFFSET ?').pluck().all(limit, offset) as number[]
      return { rowids, total: sql('SELECT count(*) FROM documents').pluck().get() as number, matches: null }
    }
    const rowids: number[] = []
    let total = 0
    for (let r = 0; r < allowed.length; r++) {
      if (allowed[r] !== 1) continue
      if (total >= offset && rowids.length < limit) rowids.push(r)
      total++
    }
    return { rowids, total, matches: allowed }
  }

  /** A browse with a sort: every document the filter allows, ordered by the sort's ranks. */
  #sortedBrowse (allowed: DocSet | null, { limit, offset }: Window): Page {
    const candidates = allowed ?? this.#catalog.filters().universe()
    const rowids: number[] = []
    for (let r = 0; r < candidates.length; r++) if (candidates[r] === 1) rowids.push(r)
    rowids.sort(bySortRanks(this.#sorting))
    return { rowids: rowids.slice(offset, offset + limit), total: rowids.length, matches: allowed }
  }

  /**
   * Keyword matches in ranking order (see ranking.ts): the words rule's levels one after the other,
   * each read only when the page reaches into it, so that a search whose every word matches enough
   * documents reads its page as with one level. The last level's matches hold every level's: they
   * give the total, when some level was left unread, and the matches facets count.
   */
  #keyword (levels: KeywordPlan[], allowed: DocSet | null, window: Window, wantMatches: boolean, withBodies = false): Page {
    if (levels.length === 1) return this.#allWords(levels[0]!, allowed, window, wantMatches, withBodies)
    const end = window.offset + window.limit
    const rowids: number[] = []
    const bodies: string[] = []
    const levelOf: number[] = []
    let seen = 0
    let read = 0
    for (; read < levels.length && seen < end; read++) {
      const within = { offset: Math.max(0, window.offset - seen), limit: window.limit - rowids.length }
      const page = this.#page(levels[read]!, allowed, within, withBodies, levels[read - 1]?.tiers.at(-1))
      rowids.push(...page.rowids)
      levelOf.push(...page.rowids.map(() => read))
      bodies.push(...page.bodies ?? [])
      seen += page.total
    }
    const union = levels.at(-1)!.tiers.at(-1)!
    let total = seen
    let matches: number[] | undefined
    if (wantMatches || (read < levels.length && allowed !== null)) {
      matches = this.#matchesOf(union, allowed)
      total = matches.length
    } else if (read < levels.length) total = this.documentsWith(union)
    return { rowids, total, levels: levelOf, ...(withBodies ? { bodies } : {}), ...(wantMatches ? { matches } : {}) }
  }

  /**
   * The matches of every word in ranking order, with the full-text query run once: its matches are
   * materialised, counted and sorted in one statement when nothing else needs them (see #page). The
   * filter narrows them through keep(rowid), which SQLite cannot hand to FTS5 as a rowid lookup, and
   * which also collects the matches when facets need them.
   */
  #allWords (plan: KeywordPlan, allowed: DocSet | null, window: Window, wantMatches: boolean, withBodies: boolean): Page {
    if (allowed === null && !wantMatches) return this.#page(plan, null, window, withBodies)
    const { sql } = this.#catalog
    const tiers = plan.tiers.slice(plan.first)
    const columns = this.#catalog.settings?.searchableAttributes.length ?? 1
    const statement = sql(`WITH matches AS MATERIALIZED (
        SELECT rowid, ${bm25(columns)} AS score FROM fts WHERE fts MATCH ? AND keep(rowid))
      SELECT rowid FROM matches ORDER BY ${keywordOrder(tiers.length, this.#sorting.length)} LIMIT ? OFFSET ?`)
    const params = [tiers.at(-1), ...plan.beyond.slice(plan.first), window.limit, window.offset]
    // SQLite skips a query whose LIMIT is 0, keep() included: a page of none (facets only) counts its matches alone.
    const { result: rowids, kept } = this.#keeping(allowed, () => window.limit === 0
      ? (sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND keep(rowid)').pluck().get(tiers.at(-1)), [])
      : statement.pluck().all(...params) as number[])
    return { rowids, total: kept.length, ...(wantMatches ? { matches: kept } : {}) }
  }

  /**
   * A page of the matches of `plan` in ranking order and their number, in one statement, which also
   * reads the page's documents when they are the answer (`withBodies`, not for hybrid); narrowed by
   * the filter (null: none) and, for a level of the words rule after the first, to the documents the
   * level before did not match (`exclude`, its widest tier). The tiers that can match (see
   * KeywordPlan) are told apart by what lies beyond them; the last, the widest, is the one matched.
   */
  #page (plan: KeywordPlan, allowed: DocSet | null, { limit, offset }: Window, withBodies: boolean, exclude?: string): Page {
    const { sql } = this.#catalog
    const tiers = plan.tiers.slice(plan.first)
    const columns = this.#catalog.settings?.searchableAttributes.length ?? 1
    const where = `fts MATCH ?${allowed === null ? '' : ' AND keep(rowid)'}${exclude === undefined ? '' : ' AND rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)'}`
    const match = exclude === undefined ? [tiers.at(-1)] : [tiers.at(-1), exclude]
    // The page's tier and sort keys are computed once, inside the LIMIT; sorting its few rows again
    // after the join is cheap. The order is keywordOrder's, by those columns.
    const keys = sortKeys(this.#sorting.length)
    const order = (table: string) => [`${table}tier`, ...keys.map((_, i) => `${table}s${i}`), `${table}score`, `${table}rowid`].join(', ')
    const page = `WITH matches AS MATERIALIZED (SELECT rowid, ${bm25(columns)} AS score FROM fts WHERE ${where}),
        page AS (SELECT rowid, score, ${keywordTier(tiers.length)} AS tier${keys.map((key, i) => `, ${key} AS s${i}`).join('')}
          FROM matches ORDER BY ${order('')} LIMIT ? OFFSET ?)`
    const statement = sql(withBodies
      ? `${page} SELECT page.rowid, (SELECT count(*) FROM matches) AS total, documents.body FROM page
          JOIN documents ON documents.rowid = page.rowid ORDER BY ${order('page.')}`
      : `${page} SELECT rowid, (SELECT count(*) FROM matches) AS total FROM page ORDER BY ${order('')}`)
    const run = () => {
      const rows = statement.raw().all(...match, ...plan.beyond.slice(plan.first), limit, offset) as Array<[number, number, string?]>
      // No row: no match, unless the page starts past them or holds none.
      const total = rows[0]?.[1] ?? (offset === 0 && limit > 0 ? 0 : sql(`SELECT count(*) FROM fts WHERE ${where}`).pluck().get(...match) as number)
      return { rowids: rows.map((r) => r[0]), total, ...(withBodies ? { bodies: rows.map((r) => r[2]!) } : {}) }
    }
    return allowed === null ? run() : this.#keeping(allowed, run).result
  }

  /**
   * `take` keyword matches from the `skip`-th on, in keyword order, of those past the keyword side's
   * first `depth` that the merge did not hold: a semantic hit may also be a keyword match further down,
   * and it is on the merged pages already. Reads the keyword order to skip + take past the depth, plus
   * as many as the merge may hold from there.
   */
  #keywordBeyond (levels: KeywordPlan[], allowed: DocSet | null, ranked: number[], depth: number, skip: number, take: number): number[] {
    const merged = new Set(ranked)
    const heldBeyond = ranked.length - depth
    const next = this.#keyword(levels, allowed, { offset: depth, limit: skip + take + heldBeyond }, false)
    return next.rowids.filter((rowid) => !merged.has(rowid)).slice(skip, skip + take)
  }

  /** Keyword and semantic rankings merged (see mergeByRank); 0 never gets here: it is the keyword result as is. */
  #hybrid (levels: KeywordPlan[], allowed: DocSet | null, window: Window, hybrid: HybridQuery, wantMatches: boolean): Page {
    const depth = hybridDepth(window.offset + window.limit)
    const ratio = hybrid.semanticRatio
    const keyword = ratio === 1 ? NOTHING : this.#keyword(levels, allowed, { limit: depth, offset: 0 }, wantMatches)
    const semantic = this.#catalog.vectors().nearest(hybrid.vector, allowed, depth)
    const ranked = mergeByRank(keyword.rowids, semantic, ratio, (rank) => levelWeight(keyword.levels?.[rank] ?? 0, levels.length))
    const end = window.offset + window.limit
    const rowids = ranked.slice(window.offset, end)
    // Past what the two sides merge into, the keyword matches they did not reach follow in keyword
    // order, so that every hit the total counts is on some page.
    if (end > ranked.length && keyword.total > keyword.rowids.length) {
      const from = Math.max(window.offset, ranked.length)
      rowids.push(...this.#keywordBeyond(levels, allowed, ranked, depth, from - ranked.length, end - from))
    }
    // The keyword side's own count, for autocomplete (see SearchResult.keywordHits): not run at all
    // when semantic alone ranks, counted then only when remembered or cheap (no filter).
    const keywordTotal = ratio < 1 ? keyword.total : allowed === null ? this.documentsWith(levels.at(-1)!.tiers.at(-1)!) : undefined
    const counts = keywordTotal === undefined ? {} : { keywordTotal }
    if (wantMatches) {
      const keywordMatches = Array.isArray(keyword.matches) ? keyword.matches : []
      const all = new Set(keywordMatches)
      for (const r of semantic) all.add(r)
      const faceted = new Set(keywordMatches)
      const closest = depth === HYBRID_FACET_DEPTH ? semantic : this.#catalog.vectors().nearest(hybrid.vector, allowed, HYBRID_FACET_DEPTH)
      for (const r of closest) faceted.add(r)
      return { rowids, total: all.size, matches: [...faceted], ...counts }
    }
    const inKeyword = new Set(keyword.rowids)
    const extra = semantic.filter((rowid) => !inKeyword.has(rowid))
    // A semantic hit may be a keyword match past the keyword side's depth, which its total counts already.
    const counted = keyword.total > keyword.rowids.length && extra.length > 0
      ? this.#catalog.sql('SELECT count(*) FROM fts WHERE fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').pluck().get(levels.at(-1)!.tiers.at(-1), JSON.stringify(extra)) as number
      : 0
    return { rowids, total: keyword.total + extra.length - counted, ...counts }
  }
}
