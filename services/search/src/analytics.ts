import type pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import type { SearchAnalyticsResponse } from '@chatsearch/contracts'
import { LAST_DAYS, SINCE_FIRST_DAY, type Queryable } from '@chatsearch/shell'
import type { SearchEngine } from './engine/port.js'

export interface SearchEvent {
  projectId: string
  kind: 'search' | 'autocomplete'
  /** The query_id the search answered with, which POST /events names; null for an autocomplete. */
  queryId: string | null
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

/** The longest an event waits in the buffer before it is written, unless the database is slower. */
export const FLUSH_EVERY_MS = 1000
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
  /** The project of each search in the buffer or being written, by query_id: POST /events accepts them before they are written. */
  readonly #unwritten = new Map<string, string>()
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
    if (event.queryId !== null) this.#unwritten.set(event.queryId, event.projectId)
    // flush() never rejects: #write logs its own failures.
    if (this.#buffer.length >= FLUSH_AT) this.flush().catch(() => {})
    else this.#timer ??= setTimeout(() => { this.flush().catch(() => {}) }, FLUSH_EVERY_MS)
  }

  /** The project of the search that answered with `queryId`, while it waits to be written (or is being written). */
  unwrittenSearch (queryId: string): string | undefined {
    return this.#unwritten.get(queryId)
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
        `INSERT INTO search_events (project_id, kind, consumer_id, query, hits, latency_ms, created_at, query_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::timestamptz[], $8::uuid[])`,
        [events.map((e) => e.projectId), events.map((e) => e.kind), events.map((e) => e.consumerId),
          events.map((e) => e.query), events.map((e) => e.hits), events.map((e) => e.latencyMs), events.map((e) => e.at), events.map((e) => e.queryId)])
      // All at once: an engine may write the searches of one flush together (Meilisearch does).
      await Promise.all(events.filter((e) => e.kind === 'search' && e.query !== '')
        .map(async (e) => await (await this.#engine.index(e.projectId)).recordQuery(e.query, { keywordHits: e.keywordHits, searcher: e.searcher })))
    } catch (err) {
      this.#log.warn({ err, dropped: events.length }, 'search analytics could not be written')
    } finally {
      // Written, or dropped: either way POST /events now asks PostgreSQL.
      for (const e of events) if (e.queryId !== null) this.#unwritten.delete(e.queryId)
    }
  }
}

const SINCE = SINCE_FIRST_DAY

/** A day of searches as counted: what its rates are made of. */
interface CountedDay {
  day: string
  searches: number
  autocompletes: number
  /** Searches that found nothing. */
  fruitless: number
  /** Searches with a query_id: those an event can name. */
  tracked: number
  clicked: number
  converted: number
  /** The positions of the clicks that gave one, summed, and how many they are. */
  position_sum: number
  positions: number
}

/** part / whole, or null when there is no whole: no rate rather than a 0 % of nothing. */
const share = (part: number, whole: number) => whole === 0 ? null : part / whole

function searchDay (d: CountedDay): SearchAnalyticsResponse['searches_per_day'][number] {
  return {
    day: d.day,
    searches: d.searches,
    autocompletes: d.autocompletes,
    no_result_rate: share(d.fruitless, d.searches),
    click_through_rate: share(d.clicked, d.tracked),
    conversion_rate: share(d.converted, d.tracked),
    average_click_position: share(d.position_sum, d.positions)
  }
}

/**
 * The project's searches over the last `days` UTC days, today included: per day (every day, counts
 * zero and rates null when quiet) with what became of them, and the 20 most frequent search queries and those that
 * found nothing. Queries are counted without regard to case, as they are matched; browsing (an
 * empty query) is not a query. Each read is a range of search_events_by_project (and of
 * search_clicks_by_project: an event comes after its search, so the events of the range's searches
 * are in the range too). The statements are not named, so each call is planned for its own number
 * of days: a named statement's plan, once PostgreSQL settles on a generic one, is the same for 1 day
 * as for 365.
 */
export async function searchAnalytics (db: Queryable, projectId: string, days: number): Promise<SearchAnalyticsResponse> {
  const queries = (condition: string) => db.query<{ query: string, count: number }>({
    text: `SELECT lower(query) AS query, count(*)::int AS count FROM search_events
      WHERE project_id = $1 AND created_at >= ${SINCE} AND kind = 'search' AND query <> '' ${condition}
      GROUP BY lower(query) ORDER BY count DESC, lower(query) LIMIT 20`,
    values: [projectId, days]
  })
  const [perDay, top, noResults] = await Promise.all([
    db.query<CountedDay>({
      // Per search: whether it was clicked, whether it converted, and the positions clicked; then
      // per day of the search. A search with several clicks counts once in the click-through rate,
      // each of its clicks in the average position.
      text: `WITH ${LAST_DAYS},
        outcomes AS (
          SELECT query_id, bool_or(type = 'click') AS clicked, bool_or(type = 'conversion') AS converted,
                 sum(position) FILTER (WHERE type = 'click') AS position_sum, count(position) FILTER (WHERE type = 'click') AS positions
          FROM search_clicks WHERE project_id = $1 AND created_at >= ${SINCE} GROUP BY query_id
        ),
        counted AS (
          SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day,
                 count(*) FILTER (WHERE e.kind = 'search') AS searches, count(*) FILTER (WHERE e.kind = 'autocomplete') AS autocompletes,
                 count(*) FILTER (WHERE e.kind = 'search' AND e.hits = 0) AS fruitless, count(e.query_id) AS tracked,
                 count(*) FILTER (WHERE o.clicked) AS clicked, count(*) FILTER (WHERE o.converted) AS converted,
                 sum(o.position_sum) AS position_sum, sum(o.positions) AS positions
          FROM search_events e LEFT JOIN outcomes o ON o.query_id = e.query_id
          WHERE e.project_id = $1 AND e.created_at >= ${SINCE} GROUP BY 1
        )
        SELECT to_char(span.day, 'YYYY-MM-DD') AS day, coalesce(searches, 0)::int AS searches, coalesce(autocompletes, 0)::int AS autocompletes,
               coalesce(fruitless, 0)::int AS fruitless, coalesce(tracked, 0)::int AS tracked,
               coalesce(clicked, 0)::int AS clicked, coalesce(converted, 0)::int AS converted,
               coalesce(position_sum, 0)::float8 AS position_sum, coalesce(positions, 0)::int AS positions
        FROM span LEFT JOIN counted USING (day) ORDER BY span.day`,
      values: [projectId, days]
    }),
    queries(''),
    queries('AND hits = 0')
  ])
  return { days, searches_per_day: perDay.rows.map(searchDay), top_queries: top.rows, no_result_queries: noResults.rows }
}
