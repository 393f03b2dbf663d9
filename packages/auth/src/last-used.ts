import type { FastifyBaseLogger } from 'fastify'
import type { Queryable } from '@chatsearch/shell'
import { touchKeys } from './store.js'

/** How often the keys used since the last write are written: "last used" is shown to the minute. */
export const LAST_USED_FLUSH_MS = 10_000

/**
 * Records which keys authenticated requests, off the request path: the ids are gathered in memory and
 * written in one UPDATE per interval (and at close). A failed write is logged and its ids kept for the
 * next one; "last used" is a convenience for people, never a reason to fail or slow a request.
 */
export class LastUsed {
  readonly #db: Queryable
  readonly #log: FastifyBaseLogger
  #pending = new Set<string>()
  #timer: NodeJS.Timeout | undefined
  #writing: Promise<void> = Promise.resolve()

  constructor (db: Queryable, log: FastifyBaseLogger, flushMs = LAST_USED_FLUSH_MS) {
    this.#db = db
    this.#log = log
    this.#timer = setInterval(() => { this.flush().catch(() => {}) }, flushMs)
    this.#timer.unref()
  }

  used (keyId: string): void {
    this.#pending.add(keyId)
  }

  async flush (): Promise<void> {
    if (this.#pending.size === 0) return await this.#writing
    const ids = [...this.#pending]
    this.#pending = new Set()
    this.#writing = this.#writing.then(async () => {
      try {
        await touchKeys(this.#db, ids)
      } catch (err) {
        this.#log.warn({ err, keys: ids.length }, 'last use of credentials not recorded; retried at the next write')
        for (const id of ids) this.#pending.add(id)
      }
    })
    await this.#writing
  }

  async close (): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.flush()
  }
}
