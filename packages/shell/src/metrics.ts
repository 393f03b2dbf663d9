import { createHash, timingSafeEqual } from 'node:crypto'
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import {
  collectDefaultMetrics, Counter, Gauge, Histogram, Registry,
  type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration, type Metric
} from 'prom-client'
import { ApiError } from './errors.js'

export type { Counter, Gauge, Histogram } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus metrics, served at `GET /metrics`. */
    metrics: Metrics
  }
}

/** Seconds; from a cached lookup to a streamed model reply. */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

type Config<C> = Omit<C, 'registers'>

/** What an in-process store holds at the moment: entries, and bytes where it counts them. */
export interface StoreSize {
  entries: number
  bytes?: number
}

/**
 * The metrics of one app, in a registry of its own (tests build many apps in one process; the
 * global registry would mix them), the process's among them. Every metric carries the `service`
 * label. Creating a metric whose name exists returns the existing one, so plugins may ask for the
 * same metric.
 */
export class Metrics {
  readonly registry = new Registry()
  /** Cache lookups by cache and result (`hit`, `miss`): the hit ratio is hit / (hit + miss). */
  readonly cacheRequests: Counter<'cache' | 'result'>
  /** Requests refused with 429, by limit class. */
  readonly rateLimited: Counter<'class'>
  readonly #stores = new Map<string, () => StoreSize>()

  constructor (service: string) {
    this.registry.setDefaultLabels({ service })
    for (const metric of processMetrics()) this.registry.registerMetric(metric)
    this.cacheRequests = this.counter({ name: 'cache_requests_total', help: 'Cache lookups by cache and result (hit, miss)', labelNames: ['cache', 'result'] })
    this.rateLimited = this.counter({ name: 'rate_limited_total', help: 'Requests refused with 429 by limit class', labelNames: ['class'] })
    const stores = this.#stores
    this.gauge({
      name: 'memory_store_entries',
      help: 'Entries held by each in-process map, cache or queue (its cap and eviction rule: README, "Memory")',
      labelNames: ['store'],
      collect () {
        this.reset()
        for (const [store, size] of stores) this.set({ store }, size().entries)
      }
    })
    this.gauge({
      name: 'memory_store_bytes',
      help: 'Bytes of text held by each in-process store that caps bytes (its cap: README, "Memory")',
      labelNames: ['store'],
      collect () {
        this.reset()
        for (const [store, size] of stores) {
          const { bytes } = size()
          if (bytes !== undefined) this.set({ store }, bytes)
        }
      }
    })
  }

  /**
   * Reports an in-process store in `memory_store_entries{store}` (and `memory_store_bytes{store}` when
   * it counts bytes), read when Prometheus scrapes. A name given again replaces the earlier store.
   */
  store (name: string, size: () => StoreSize) {
    this.#stores.set(name, size)
  }

  counter<L extends string = never> (config: Config<CounterConfiguration<L>>): Counter<L> {
    return this.#existing(config.name, Counter) ?? new Counter({ ...config, registers: [this.registry] })
  }

  histogram<L extends string = never> (config: Config<HistogramConfiguration<L>>): Histogram<L> {
    return this.#existing(config.name, Histogram) ?? new Histogram({ ...config, registers: [this.registry] })
  }

  gauge<L extends string = never> (config: Config<GaugeConfiguration<L>>): Gauge<L> {
    return this.#existing(config.name, Gauge) ?? new Gauge({ ...config, registers: [this.registry] })
  }

  #existing<M> (name: string, kind: abstract new (...args: never[]) => M): M | undefined {
    const found = this.registry.getSingleMetric(name)
    if (found === undefined) return undefined
    if (!(found instanceof kind)) throw new Error(`metric ${name} already exists with another type`)
    return found
  }
}

let shared: Metric[] | undefined

/**
 * CPU, memory, event-loop lag, GC, handles. Each collection starts an event-loop delay monitor and
 * a GC observer that prom-client gives no way to stop, so there is one per process; every app's
 * registry holds the same metric objects and adds its own `service` label when scraped.
 */
function processMetrics (): Metric[] {
  if (shared === undefined) {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    liveHeapGauge(registry)
    shared = registry.getMetricsAsArray().flatMap(({ name }) => registry.getSingleMetric(name) ?? [])
  }
  return shared
}

/**
 * The V8 heap used just after the last full (mark-compact) collection: what the process holds alive.
 * `nodejs_heap_size_used_bytes` also counts the garbage not yet collected, which V8 lets grow between
 * full collections, so it swings by a few times the live heap under load and cannot show a leak.
 * Read when the observer is told of the collection (within a tick of it), so a few kilobytes allocated
 * since are counted too; 0 until the first full collection.
 */
function liveHeapGauge (registry: Registry) {
  let live = 0
  new PerformanceObserver((list) => {
    if (list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) {
      live = getHeapStatistics().used_heap_size
    }
  }).observe({ entryTypes: ['gc'] })
  // eslint-disable-next-line no-new -- registered in the registry it is given
  new Gauge({ name: 'nodejs_heap_live_bytes', help: 'V8 heap used just after the last full (mark-compact) garbage collection: the live heap; 0 before the first', registers: [registry], collect () { this.set(live) } })
}

const digest = (text: string) => createHash('sha256').update(text).digest()

export interface MetricsOptions {
  service: string
  /** When set, `GET /metrics` wants `Authorization: Bearer <token>`; unset, it is open (see README). */
  token?: string
}

/**
 * Prometheus metrics for an app: `app.metrics` to define its own, request rate and latency by route
 * template and status, and `GET /metrics`. Register it before the routes.
 */
export const metricsPlugin = fp<MetricsOptions>(async (app: FastifyInstance, opts) => {
  const metrics = new Metrics(opts.service)
  const labelNames = ['method', 'route', 'status'] as const
  const requests = metrics.counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route template and status', labelNames })
  const duration = metrics.histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its response (a whole stream for server-sent events)',
    labelNames,
    buckets: HTTP_BUCKETS
  })
  app.decorate('metrics', metrics)

  app.addHook('onResponse', async (request, reply) => {
    // The template, never the URL: one series per route, whatever ids and query strings come in.
    const route = request.routeOptions.url ?? 'unmatched'
    if (route === '/metrics') return
    const labels = { method: request.method, route, status: reply.statusCode }
    requests.inc(labels)
    duration.observe(labels, reply.elapsedTime / 1000)
  })

  const expected = opts.token === undefined ? undefined : digest(`Bearer ${opts.token}`)
  // Hidden from the OpenAPI documents on purpose: it is for a Prometheus scraper on the service's own
  // port (the gateway never routes it), speaks the text exposition format, not the API's JSON, and
  // its optional token is METRICS_TOKEN, not a project credential. Scraped every few seconds: its
  // request lines are debug (see RequestLogController).
  app.get('/metrics', { config: { requestLogLevel: 'debug' }, schema: { hide: true } }, async (request, reply) => {
    if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      throw new ApiError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"')
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics())
  })
}, { name: '@chatsearch/metrics', fastify: '5.x' })
