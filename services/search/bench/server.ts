// The servers of the search benchmark's HTTP part, in a process of their own so that the load
// generator does not share their event loop: the real search app (with the 50k catalog imported
// keyword-only, through the engine as POST /documents would) and a bare Fastify route.
// Started by search.ts with BENCH_DATABASE_URL and BENCH_DATA_DIR set; reports over IPC.
// BENCH_ENGINE=meilisearch runs the app on the Meilisearch at MEILI_URL (MEILI_API_KEY), in indexes
// of a prefix of its own that are deleted at the end; BENCH_CATALOG imports the items of that file
// (a JSON array or JSON Lines) instead of the generated catalog.
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { constants as perf, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks'
import Fastify, { type FastifyInstance } from 'fastify'
import { Meilisearch } from 'meilisearch'
import { createKey, createProject } from '@chatsearch/auth'
import { createPool } from '@chatsearch/shell'
import { productsOf, type Product } from '../catalog/generate.js'
import { buildApp } from '../src/app.js'
import { readSearchEnv, searchConfig } from '../src/config.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { recordStalls, threadCpuMs, type Stalls } from './stalls.js'
import { BATCH, SEED, benchSettings } from './workload.js'
import { toParent, listeningPort } from '@chatsearch/testkit/bench-child'

export type ServerMessage =
  | { type: 'ready', searchPort: number, barePort: number, key: string, importSeconds: number, items: number, config: Record<string, unknown>, readersFailed?: string }
  | { type: 'failed', error: string }
  /** The event loop's delay since the last 'loop-reset' (ms), the main thread's longest and total garbage collection pause (ms), and the CPU time used. */
  | { type: 'loop', p50: number, p99: number, max: number, gcMaxMs: number, gcMaxKind: string, gcTotalMs: number, cpuMs: number, cache: { hits: number, misses: number, errors: number }, stalls: Stalls, mainThreadCpuMs: number }

/** What the benchmark asks between its runs. */
export type ServerRequest = { type: 'loop-reset' } | { type: 'loop-read' }

const send = (message: ServerMessage) => toParent(message)

const within = <T>(ms: number, promise: Promise<T>) => Promise.race([
  promise,
  new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())
])

// How long the event loop was held up (a search runs synchronously on it when there are no readers).
const loop = monitorEventLoopDelay({ resolution: 5 })
loop.enable()
const stalls = recordStalls()
// The main thread's garbage collection pauses: one part of what holds the loop up.
let gc = { maxMs: 0, maxKind: '', totalMs: 0 }
const gcKinds: Record<number, string> = {
  [perf.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perf.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks'
}
const gcKind = (entry: PerformanceEntry) => gcKinds[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other'
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const longest = entry.duration > gc.maxMs
    gc = { maxMs: longest ? entry.duration : gc.maxMs, maxKind: longest ? gcKind(entry) : gc.maxKind, totalMs: gc.totalMs + entry.duration }
  }
}).observe({ entryTypes: ['gc'] })
let cpuAt = process.cpuUsage()
let mainCpuAt = threadCpuMs()
/** The search app being measured, whose cache counters are reported with the loop figures. */
let measured: FastifyInstance | undefined
process.on('message', (m: ServerRequest) => {
  if (m.type === 'loop-reset') {
    loop.reset()
    stalls.reset()
    gc = { maxMs: 0, maxKind: '', totalMs: 0 }
    cpuAt = process.cpuUsage()
    mainCpuAt = threadCpuMs()
  } else if (m.type === 'loop-read') {
    const cpu = process.cpuUsage(cpuAt)
    const { hits = 0, misses = 0, errors = 0 } = measured?.searchCache ?? {}
    send({ type: 'loop', p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, gcMaxMs: gc.maxMs, gcMaxKind: gc.maxKind, gcTotalMs: gc.totalMs, cpuMs: (cpu.user + cpu.system) / 1000, cache: { hits, misses, errors }, stalls: stalls.read(), mainThreadCpuMs: threadCpuMs() - mainCpuAt }).catch(() => {})
  }
})

const meili = process.env.BENCH_ENGINE === 'meilisearch'
  ? { url: process.env.MEILI_URL ?? '', apiKey: process.env.MEILI_API_KEY, prefix: `chatsearch-bench-${randomBytes(4).toString('hex')}-` }
  : undefined

/** Deletes this run's Meilisearch indexes (the catalog, its suggestions, the knowledge). */
async function dropMeiliIndexes () {
  if (meili === undefined) return
  const client = new Meilisearch({ host: meili.url, ...(meili.apiKey === undefined ? {} : { apiKey: meili.apiKey }) })
  const { results } = await client.getIndexes({ limit: 1000 })
  await Promise.all(results.filter((i) => i.uid.startsWith(meili.prefix)).map((i) => client.deleteIndex(i.uid)))
}

const apps: FastifyInstance[] = []
let closing = false
async function close () {
  if (closing) return
  closing = true
  await Promise.allSettled(apps.map((app) => app.close()))
  await dropMeiliIndexes().catch((err: unknown) => process.stderr.write(`[bench:server] could not delete the bench's Meilisearch indexes (prefix ${meili?.prefix}): ${String(err)}\n`))
  process.exit(0)
}
process.on('SIGTERM', close)
process.on('SIGINT', close)
process.on('disconnect', close)

try {
  const databaseUrl = process.env.BENCH_DATABASE_URL
  const dataDir = process.env.BENCH_DATA_DIR
  const items = Number(process.env.BENCH_ITEMS ?? 50_000)
  if (databaseUrl === undefined || dataDir === undefined) throw new Error('BENCH_DATABASE_URL and BENCH_DATA_DIR must be set')
  // The service's own configuration with its defaults (reader threads, pool size…), embeddings off
  // (BENCH_EMBEDDINGS=1 turns them on for the routes; the catalog seeded here stays keyword-only);
  // BENCH_SEARCH_READERS overrides the number of reader threads. One credential sends everything:
  // no rate limits. The response cache is off (the engine is measured) unless
  // BENCH_SEARCH_CACHE_TTL_S says otherwise (pnpm bench cache), in Redis with BENCH_REDIS_URL.
  const env = readSearchEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    EMBEDDINGS: process.env.BENCH_EMBEDDINGS === '1' ? 'true' : 'false',
    RATE_LIMIT_SEARCH: '0',
    RATE_LIMIT_CATALOG: '0',
    SEARCH_CACHE_TTL_S: process.env.BENCH_SEARCH_CACHE_TTL_S ?? '0',
    ...(meili === undefined
      ? { SEARCH_ENGINE: 'embedded' }
      : { SEARCH_ENGINE: 'meilisearch', MEILI_URL: meili.url, MEILI_INDEX_PREFIX: meili.prefix, ...(meili.apiKey === undefined ? {} : { MEILI_API_KEY: meili.apiKey }) }),
    ...(process.env.BENCH_REDIS_URL === undefined ? {} : { REDIS_URL: process.env.BENCH_REDIS_URL }),
    ...(process.env.BENCH_SEARCH_READERS === undefined ? {} : { SEARCH_READERS: process.env.BENCH_SEARCH_READERS })
  })
  let config = searchConfig(env, databaseUrl)
  let app = await buildApp(config)
  apps.push(app)

  // A project and a search key, as the admin CLI would create them.
  const pool = createPool(databaseUrl, 1)
  const project = await createProject(pool, 'bench')
  const { key } = await createKey(pool, project.id, 'search', 'bench')
  await pool.end()

  // Reader threads that cannot start (a worker does not inherit `--import tsx` on Node 20) fail
  // every search: measured then without them, and said so.
  let readersFailed: string | undefined
  try {
    await within(10_000, (await app.engine.index(project.id)).search({ q: 'warm', filter: null, facets: [], limit: 1, offset: 0 }))
  } catch (err) {
    if (config.readers === 0 || meili !== undefined) throw err
    readersFailed = err instanceof Error ? err.message : String(err)
    process.stderr.write(`[bench:server] a search with ${config.readers} reader threads failed (${readersFailed}); restarting with readers: 0\n`)
    apps.splice(apps.indexOf(app), 1)
    await app.close()
    config = { ...config, readers: 0 }
    app = await buildApp(config)
    apps.push(app)
  }

  const index = await app.engine.index(project.id)
  const own = process.env.BENCH_CATALOG
  let batch: Product[] = []
  let imported = 0
  const started = performance.now()
  const flush = async () => {
    // The generated catalog gets the benchmark's settings; a catalog of your own, the inferred ones.
    if (imported === 0 && own === undefined) await index.updateSettings(benchSettings(batch))
    await ingestDocuments(index, batch, undefined)
    imported += batch.length
    batch = []
    if (imported % 10_000 === 0) process.stderr.write(`[bench:server] imported ${imported} items\n`)
  }
  for (const p of own === undefined ? productsOf(items, SEED) : await itemsOfFile(own)) {
    batch.push(p)
    if (batch.length === BATCH) await flush()
  }
  if (batch.length > 0) await flush()
  const importSeconds = (performance.now() - started) / 1000
  // The first search reads the vocabulary: done here, not in the first measured request.
  await index.search({ q: 'warm', filter: null, facets: [], limit: 1, offset: 0 })
  await app.listen({ host: '127.0.0.1', port: 0 })
  measured = app

  const bare = Fastify({ logger: false })
  apps.push(bare)
  bare.post('/bare', async () => ({ hello: 'world', ok: true }))
  await bare.listen({ host: '127.0.0.1', port: 0 })

  const { databaseUrl: _url, dataDir: _dir, ...shown } = config
  await send({ type: 'ready', searchPort: listeningPort(app), barePort: listeningPort(bare), key, importSeconds, items: imported, config: shown, ...(readersFailed === undefined ? {} : { readersFailed }) })
} catch (err) {
  await send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  await close()
}

/** The items of a catalog file: a JSON array, or one JSON object per line. */
async function itemsOfFile (file: string): Promise<Product[]> {
  const text = await readFile(file, 'utf8')
  const items = text.trimStart().startsWith('[')
    ? JSON.parse(text) as unknown[]
    : text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown)
  return items as Product[]
}
