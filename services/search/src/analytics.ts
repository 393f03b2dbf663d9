import type pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import type { SearchEngine } from './engine/port.js'

export interface SearchEvent {
  projectId: string
  kind: 'search' | 'autocomplete'
  consumerId: string | null
  query: string
  hits: number
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
  #timer: NodeJS.Timeout | undefined
  #flushing: Promise<void> = Promise.resolve()

  constructor (pool: pg.Pool, engine: SearchEngine, log: FastifyBaseLogger) {
    this.#pool = pool
    this.#engine = engine
    this.#log = log
  }

  record (event: SearchEvent) {
    if (this.#buffer.length >= MAX_BUFFER) return
    this.#buffer.push(event)
    // flush() never rejects: #write logs its own failures.
    if (this.#buffer.length >= FLUSH_AT) this.flush().catch(() => {})
    else this.#timer ??= setTimeout(() => { this.flush().catch(() => {}) }, FLUSH_EVERY_MS)
  }

  /** Events waiting for the next flush. */
  get pending (): number {
    return this.#buffer.length
  }

  async flush (): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    const events = this.#buffer
    this.#buffer = []
    if (events.length > 0) this.#flushing = this.#flushing.then(() => this.#write(events))
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
        .map(async (e) => await (await this.#engine.index(e.projectId)).recordQuery(e.query, e.hits)))
    } catch (err) {
      this.#log.warn({ err, dropped: events.length }, 'search analytics could not be written')
    }
  }
}
