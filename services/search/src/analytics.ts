import type pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import type { SearchAnalyticsResponse } from '@chatsearch/contracts'
import { LAST_DAYS, SINCE_FIRST_DAY } from '@chatsearch/shell'
import type { SearchEngine } from './engine/port.js'

export interface SearchEvent {
  projectId: string
  kind: 'search' | 'autocomplete'
  consumerId: string | null
  /**
   * Who made it, as autocomplete counts distinct searchers (engine/searchers.ts's searcherOf: the
   * consumer id, or the client address). Never written to PostgreSQL; the engine keeps a keyed hash.
   */
  searcher: string
  query: string
  hits: number
  /** What the search tells autocomplete of its keyword results (see RecordedSearch); null: nothing. */
  keywordHits: number | null
  latencyMs: number
  at: Date
}

const FLUSH_EVERY_MS = 1000
const FLUSH_AT = 500
const MAX_BUFFER = 50_000

/**
 * Records searches off the request path: events are buffered and written in one INSERT per flush
 * (every second, or sooner when many arrive). Searches also count towards the project's popular
 * queries, which feed autocomplete. A failed flush is logged and its events dropped: analytics must
 * never hold up or fail a search.
 */
export class SearchAnalytics {
  readonly #pool: pg.Pool
  readonly #engine: SearchEngine
  readonly #log: FastifyBaseLogger
  #buffer: SearchEvent[] = []
  /** Events taken by a flush and not yet written (or dropped): they count towards MAX_BUFFER too. */
  #writing = 0
  #timer: NodeJS.Timeout | undefined
  #flushing: Promise<void> = Promise.resolve()

  constructor (pool: pg.Pool, engine: SearchEngine, log: FastifyBaseLogger) {
    this.#pool = pool
    this.#engine = engine
    this.#log = log
  }

  record (event: SearchEvent) {
    // A database slower than the searches would otherwise queue flush after flush behind it.
    if (this.#buffer.length + this.#writing >= MAX_BUFFER) return
    this.#buffer.push(event)
    // flush() never rejects: #write logs its own failures.
    if (this.#buffer.length >= FLUSH_AT) this.flush().catch(() => {})
    else this.#timer ??= setTimeout(() => { this.flush().catch(() => {}) }, FLUSH_EVERY_MS)
  }

  /** Events not yet written: waiting for the next flush, or taken by one still writing. */
  get pending (): number {
    return this.#buffer.length + this.#writing
  }

  async flush (): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    const events = this.#buffer
    this.#buffer = []
    if (events.length > 0) {
      this.#writing += events.length
      this.#flushing = this.#flushing.then(() => this.#write(events)).finally(() => { this.#writing -= events.length })
    }
    await this.#flushing
  }

  async #write (events: SearchEvent[]) {
    try {
      await this.#pool.query(
        `INSERT INTO search_events (project_id, kind, consumer_id, query, hits, latency_ms, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::timestamptz[])`,
        [events.map((e) => e.projectId), events.map((e) => e.kind), events.map((e) => e.consumerId),
          events.map((e) => e.query), events.map((e) => e.hits), events.map((e) => e.latencyMs), events.map((e) => e.at)])
      // All at once: an engine may write the searches of one flush together (Meilisearch does).
      await Promise.all(events.filter((e) => e.kind === 'search' && e.query !== '')
        .map(async (e) => await (await this.#engine.index(e.projectId)).recordQuery(e.query, { keywordHits: e.keywordHits, searcher: e.searcher })))
    } catch (err) {
      this.#log.warn({ err, dropped: events.length }, 'search analytics could not be written')
    }
  }
}

const SINCE = SINCE_FIRST_DAY

/**
 * The project's searches over the last `days` UTC days, today included: per day (every day, zero
 * when quiet), and the 20 most frequent search queries and those that found nothing. Queries are
 * counted without regard to case, as they are matched; browsing (an empty query) is not a query.
 * Each read is a range of search_events_by_project. The statements are not named, so each call is
 * planned for its own number of days: a named statement's plan, once PostgreSQL settles on a generic
 * one, is the same for 1 day as for 365.
 */
export async function searchAnalytics (db: Pick<pg.Pool, 'query'>, projectId: string, days: number): Promise<SearchAnalyticsResponse> {
  const queries = (condition: string) => db.query<{ query: string, count: number }>({
    text: `SELECT lower(query) AS query, count(*)::int AS count FROM search_events
      WHERE project_id = $1 AND created_at >= ${SINCE} AND kind = 'search' AND query <> '' ${condition}
      GROUP BY lower(query) ORDER BY count DESC, lower(query) LIMIT 20`,
    values: [projectId, days]
  })
  const [perDay, top, noResults] = await Promise.all([
    db.query<{ day: string, searches: number, autocompletes: number }>({
      text: `WITH ${LAST_DAYS},
        counted AS (
          SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
                 count(*) FILTER (WHERE kind = 'search') AS searches, count(*) FILTER (WHERE kind = 'autocomplete') AS autocompletes
          FROM search_events WHERE project_id = $1 AND created_at >= ${SINCE} GROUP BY 1
        )
        SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(searches, 0)::int AS searches, coalesce(autocompletes, 0)::int AS autocompletes
        FROM span LEFT JOIN counted USING (day) ORDER BY span.day`,
      values: [projectId, days]
    }),
    queries(''),
    queries('AND hits = 0')
  ])
  return { days, searches_per_day: perDay.rows, top_queries: top.rows, no_result_queries: noResults.rows }
}
