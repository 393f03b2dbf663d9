import type { FastifyBaseLogger } from 'fastify'
import { apiVersion, type Task, type WebhookDelivery, type WebhookDeliveryEvent, type WebhookEventType } from '@chatsearch/contracts'
import type { LookupFunction, Queryable } from '@chatsearch/shell'
import type { WebhookConfig } from './config.js'
import { insertDeliveries } from './store.js'
import { DeliveryWorker, type WorkerOptions } from './worker.js'

export interface WebhooksOptions extends WebhookConfig {
  /** The User-Agent of deliveries (default `ChatSearch-Webhooks/<API version>`). */
  userAgent?: string
  /** How host names are resolved (default dns.lookup). */
  lookup?: LookupFunction
  onAttempt?: WorkerOptions['onAttempt']
}

/**
 * Queues `event` with its `data` for every enabled endpoint of the project subscribed to it, on
 * `db` (a client in the caller's transaction, so that the deliveries commit with what they tell of);
 * answers how many. A delivery worker of any service sends them at its next poll.
 */
export async function queueEvent (db: Queryable, projectId: string, event: WebhookEventType, data: Record<string, unknown>): Promise<number> {
  return (await insertDeliveries(db, projectId, event, data)).length
}

/** A task that ended, as `task.succeeded`, `task.failed` or `task.canceled` with the task as GET /tasks/{id} shows it. */
export const queueTaskEnded = (db: Queryable, projectId: string, task: Task) =>
  queueEvent(db, projectId, task.status === 'succeeded' ? 'task.succeeded' : task.status === 'canceled' ? 'task.canceled' : 'task.failed', task)

/**
 * A service's side of webhooks: `emit` queues an event for the project's subscribed endpoints,
 * and the worker sends what is due, from this service or any other.
 */
export class Webhooks {
  readonly options: WebhooksOptions
  readonly #db: Queryable
  readonly #worker: DeliveryWorker

  constructor (db: Queryable, log: FastifyBaseLogger, options: WebhooksOptions) {
    this.options = options
    this.#db = db
    this.#worker = new DeliveryWorker(db, log, { ...options, userAgent: options.userAgent ?? `ChatSearch-Webhooks/${apiVersion}` })
  }

  start (): void {
    this.#worker.start()
  }

  /**
   * Queues `event` with its `data` for every enabled endpoint of the project subscribed to it;
   * answers how many. Given `db` (a client in the caller's transaction), the deliveries are written
   * with what the event tells of, or not at all; they are then sent at the worker's next poll.
   */
  async emit (projectId: string, event: WebhookEventType, data: Record<string, unknown>, db?: Queryable): Promise<number> {
    const made = await queueEvent(db ?? this.#db, projectId, event, data)
    if (db === undefined && made > 0) this.#worker.wake()
    return made
  }

  /** A `ping` for one endpoint, whatever it subscribed to (the console's "send test event"). */
  async ping (projectId: string, endpointId: string): Promise<WebhookDelivery | undefined> {
    const [made] = await insertDeliveries(this.#db, projectId, 'ping' satisfies WebhookDeliveryEvent, { message: 'A test event sent from the console' }, endpointId)
    if (made !== undefined) this.#worker.wake()
    return made
  }

  /** Looks for due deliveries now (after a retry is asked for, or a transaction that emitted committed). */
  wake (): void {
    this.#worker.wake()
  }

  async close (): Promise<void> {
    await this.#worker.stop()
  }
}
