import type { FastifyBaseLogger } from 'fastify'
import type { Queryable } from '@chatsearch/shell'
import { Sender, type SenderOptions } from './send.js'
import { claimDue, pruneDeliveries, recordAttempt, type ClaimedDelivery } from './store.js'

export interface WorkerOptions extends SenderOptions {
  /** Attempts of a delivery before it fails for good. */
  maxAttempts: number
  /** The wait after the first failed attempt; it doubles after each next one, up to MAX_RETRY_MS. */
  retryBaseMs: number
  /** How often an idle worker looks for due deliveries. */
  pollMs: number
  /** Told of each attempt's outcome and how long it took (the service's metrics). */
  onAttempt?: (outcome: AttemptResult, seconds: number) => void
}

/** What came of an attempt: delivered, failed and due again, or failed for good. */
export type AttemptResult = 'delivered' | 'retrying' | 'failed'

/** No wait between two attempts is longer. */
export const MAX_RETRY_MS = 6 * 3600_000
/** Deliveries sent at once by one worker. */
const BATCH = 4
/** Finished deliveries are kept this long in the log, then deleted (checked once an hour). */
export const DELIVERY_RETENTION_DAYS = 30
const PRUNE_EVERY_MS = 3600_000

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: base, 2 × base, 4 × base, … */
export function retryDelay (attempts: number, baseMs: number): number {
  return Math.min(MAX_RETRY_MS, baseMs * 2 ** Math.max(0, attempts - 1))
}

/** The body of a delivery, the same bytes at every attempt: `{id, type, created_at, project_id, data}`. */
export function eventBody (d: Pick<ClaimedDelivery, 'event_id' | 'event' | 'created_at' | 'project_id' | 'payload'>): string {
  return JSON.stringify({ id: d.event_id, type: d.event, created_at: d.created_at, project_id: d.project_id, data: d.payload })
}

/**
 * Sends due deliveries from PostgreSQL: any number of workers in any service share the table
 * (claimDue's SKIP LOCKED), and what is pending when a process stops is sent after it starts again
 * (or by another one), since the table, not the process, holds the queue.
 */
export class DeliveryWorker {
  readonly #db: Queryable
  readonly #log: FastifyBaseLogger
  readonly #options: WorkerOptions
  readonly #sender: Sender
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #again = false
  #stopped = false
  #prunedAt = 0

  constructor (db: Queryable, log: FastifyBaseLogger, options: WorkerOptions) {
    this.#db = db
    this.#log = log
    this.#options = options
    this.#sender = new Sender(options)
  }

  start (): void {
    this.wake()
  }

  /** Looks for due deliveries now rather than at the next poll. */
  wake (): void {
    if (this.#stopped) return
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    clearTimeout(this.#timer)
    this.#running = this.#drain()
      .catch((err: unknown) => { this.#log.warn({ err }, 'webhooks: delivery round failed') })
      .finally(() => {
        this.#running = undefined
        if (this.#stopped) return
        if (this.#again) {
          this.#again = false
          this.wake()
          return
        }
        this.#timer = setTimeout(() => this.wake(), this.#options.pollMs)
        this.#timer.unref()
      })
  }

  /** Stops polling; attempts under way finish (each is bounded by the timeout) and are recorded. */
  async stop (): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
    await this.#sender.close()
  }

  async #drain (): Promise<void> {
    if (Date.now() - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = Date.now()
      const pruned = await pruneDeliveries(this.#db, DELIVERY_RETENTION_DAYS)
      if (pruned > 0) this.#log.info({ pruned }, `webhooks: deleted the deliveries older than ${DELIVERY_RETENTION_DAYS} days`)
    }
    // The lease outlasts an attempt: a delivery is claimed again only if its worker died.
    const leaseMs = 2 * this.#options.timeoutMs + 5000
    for (;;) {
      if (this.#stopped) return
      const claimed = await claimDue(this.#db, BATCH, leaseMs)
      await Promise.all(claimed.map((d) => this.#attempt(d)))
      if (claimed.length < BATCH) return
    }
  }

  async #attempt (d: ClaimedDelivery): Promise<void> {
    const started = performance.now()
    const outcome = await this.#sender.send({ url: d.url, secret: d.secret, body: eventBody(d), event: d.event, deliveryId: d.id })
    const retryInMs = outcome.ok || d.attempts >= this.#options.maxAttempts ? null : retryDelay(d.attempts, this.#options.retryBaseMs)
    await recordAttempt(this.#db, d.id, outcome, retryInMs)
    this.#options.onAttempt?.(outcome.ok ? 'delivered' : retryInMs === null ? 'failed' : 'retrying', (performance.now() - started) / 1000)
    if (!outcome.ok) {
      this.#log.info({ delivery: d.id, event: d.event, attempts: d.attempts, status: outcome.statusCode, error: outcome.error },
        retryInMs === null ? 'webhooks: delivery failed for good' : 'webhooks: delivery failed; it will be tried again')
    }
  }
}
