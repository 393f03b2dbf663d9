// `pnpm bench knowledge`: knowledge ingestion and search on the embedded engine, in one process.
//  1. Ingestion: generated Markdown help pages (knowledge-corpus.ts, five sections of about one chunk
//     each) stored through ingestKnowledge, as POST /knowledge/documents stores them, in batches of
//     BATCH pages: with the default embedder (USE-lite, on this process's event loop; EMBEDDER=static
//     the static one) at 1k chunks,
//     and keyword-only (EMBEDDINGS=false) at 1k and 10k chunks. Pages/s and chunks/s.
//  2. Search at 1k and 10k chunks, keyword and hybrid, p50/p95, each query in turn on three sides
//     (so that a load coming and going weighs on all alike): the raw SQLite work the engine stands on
//     (knowledge-raw.ts: its FTS5 statement, plus for hybrid an exact vector scan, on the same index
//     file), the engine's own search (hybrid given the query vector), and POST /knowledge/search over
//     HTTP (one client: undici's request() on one keep-alive connection; hybrid includes embedding
//     the query, timed apart, the first time a text is searched: the service keeps the vectors of
//     recent query texts, so at 10k chunks, with the queries of 1k again, no query is embedded),
//     with the ratios engine/raw and HTTP/raw; and a bare Fastify route on the same client (the
//     cost of HTTP itself), also through fetch() for comparison.
//  3. A hybrid search at 10k chunks right after a one-page write, against the same search with no
//     write between (what a chat turn pays while a crawl or an upload stores pages).
// The 10k hybrid index holds real vectors for its first chunks and those same vectors again for the
// rest (embedding 10k chunks here takes minutes; the search's cost does not depend on the values):
// BENCH_EMBED_ALL=1 embeds every chunk instead. Progress goes to stderr; the tables and, last, one
// line of JSON to stdout. About 3 minutes on 2 cores.
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { Pool } from 'undici'
import { createKey, createProject } from '@chatsearch/auth'
import type { Embedder } from '@chatsearch/embeddings'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { buildApp } from '../src/app.js'
import { readSearchEnv, searchConfig } from '../src/config.js'
import type { KnowledgeIndex } from '../src/engine/port.js'
import { CANDIDATES } from '../src/engines/embedded/knowledge-ranking.js'
import { processQuery } from '../src/text.js'
import { chunksOf, ingestKnowledge } from '../src/knowledge/ingest.js'
import { validateKnowledgeBatch } from '../src/knowledge/validate.js'
import { helpPages, helpQueries, type BenchPage } from './knowledge-corpus.js'
import { rawKnowledge } from './knowledge-raw.js'
import { percentile, round } from './workload.js'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

const SEED = 42
const BATCH = 50
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200)
const LIMIT = 5
const EMBED_ALL = process.env.BENCH_EMBED_ALL === '1'
/** Searches timed right after a one-page write. */
const AFTER_WRITE_RUNS = 40
/** The whole run stops (and cleans up) after this long, whatever it was doing. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000

const began = performance.now()
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const { defer, cleanup } = boundedRun({ log, deadlineMs: DEADLINE_MS })

/** Pages with enough sections for `chunks` chunks (the generator writes about five per page). */
const pagesFor = (chunks: number) => helpPages(Math.ceil(chunks / 5), SEED)
const chunkCount = (pages: BenchPage[]) => validateKnowledgeBatch(pages).reduce((n, d) => n + chunksOf(d).length, 0)

interface Ingestion { label: string, pages: number, chunks: number, seconds: number }

async function ingest (label: string, index: KnowledgeIndex, pages: BenchPage[], embedder: Embedder | undefined): Promise<Ingestion> {
  const chunks = chunkCount(pages)
  log(`ingesting ${pages.length} pages (${chunks} chunks), ${label}`)
  const started = performance.now()
  for (let i = 0; i < pages.length; i += BATCH) await ingestKnowledge(index, pages.slice(i, i + BATCH), embedder)
  return { label, pages: pages.length, chunks, seconds: (performance.now() - started) / 1000 }
}

/**
 * The default embedder's vectors, computed for the first `real` texts it is asked for and given
 * again, in turn, for every later text: an index of any size with vectors of real text, for the
 * price of embedding `real` texts.
 */
function recyclingEmbedder (embedder: Embedder, real: number): Embedder {
  const seen: Float32Array[] = []
  return {
    dimensions: embedder.dimensions,
    async embed (texts) {
      const fresh = Math.max(0, Math.min(texts.length, real - seen.length))
      if (fresh > 0) seen.push(...await embedder.embed(texts.slice(0, fresh)))
      return texts.map((_, i) => i < fresh ? seen[seen.length - fresh + i]! : seen[(seen.length + i) % seen.length]!)
    }
  }
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) }
}

async function timed (runs: Array<() => Promise<unknown>>): Promise<{ p50: number, p95: number }> {
  for (const run of runs.slice(0, 20)) await run() // warm-up
  const ms: number[] = []
  for (const run of runs) {
    const started = performance.now()
    await run()
    ms.push(performance.now() - started)
  }
  return stats(ms)
}

/**
 * Every side run on query 0, then every side on query 1, and so on (each query starting with the
 * next side, so that none always runs first), after a warm-up of 20 queries: figures of one call
 * compare with each other even when other work on the machine comes and goes.
 */
async function timedSides<K extends string> (count: number, sides: Record<K, (i: number) => unknown>): Promise<Record<K, { p50: number, p95: number }>> {
  const names = Object.keys(sides) as K[]
  for (let i = 0; i < Math.min(20, count); i++) for (const name of names) await sides[name](i)
  const ms = new Map<K, number[]>(names.map((name) => [name, []]))
  for (let i = 0; i < count; i++) {
    for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)]) {
      const started = performance.now()
      await sides[name](i)
      ms.get(name)!.push(performance.now() - started)
    }
  }
  return Object.fromEntries(names.map((name) => [name, stats(ms.get(name)!)])) as Record<K, { p50: number, p95: number }>
}

async function main () {
  log(`${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`)
  const databaseUrl = await testDatabase({ teardown: defer })
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-bench-knowledge-'))
  defer(() => rm(dataDir, { recursive: true, force: true }))

  // The service's own configuration with embeddings on (the default), rate limits off; searches on
  // the event loop (reader threads do not start under tsx on Node 20; they serve catalog searches).
  const env = readSearchEnv({ ...(process.env.EMBEDDER === undefined ? {} : { EMBEDDER: process.env.EMBEDDER }), DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_SEARCH: '0', RATE_LIMIT_CATALOG: '0', SEARCH_CACHE_TTL_S: '0', SEARCH_READERS: '0' })
  const app = await buildApp(searchConfig(env, databaseUrl))
  defer(() => app.close())
  const embedder = app.embedder
  if (embedder === undefined) throw new Error('the search app started without an embedder')
  await app.listen({ host: '127.0.0.1', port: 0 })
  const bare = Fastify({ logger: false })
  defer(() => bare.close())
  bare.post('/bare', async () => ({ hits: [], ok: true }))
  await bare.listen({ host: '127.0.0.1', port: 0 })

  const pool = createPool(databaseUrl, 1)
  const project = async (name: string) => {
    const p = await createProject(pool, name)
    return { id: p.id, key: (await createKey(pool, p.id, 'search', 'bench')).key, index: await app.engine.knowledge(p.id) }
  }
  const small = await project('hybrid-1k')
  const large = await project('hybrid-10k')
  const kwSmall = await project('keyword-1k')
  const kwLarge = await project('keyword-10k')
  await pool.end()

  const pages1k = pagesFor(1000)
  const pages10k = pagesFor(10_000)
  const ingestions = [
    await ingest('keyword-only', kwSmall.index, pages1k, undefined),
    await ingest('keyword-only', kwLarge.index, pages10k, undefined),
    await ingest(`with the ${env.EMBEDDER} embedder`, small.index, pages1k, embedder)
  ]
  log(`building the 10k hybrid index (${EMBED_ALL ? 'every chunk embedded' : 'vectors of 1,000 chunks, given again in turn'})`)
  const large10k = await ingest('hybrid index', large.index, pages10k, EMBED_ALL ? embedder : recyclingEmbedder(embedder, 1000))

  const queries = helpQueries(QUERIES, SEED + 1)
  const vectors = await embedder.embed(queries)
  const origin = (port: number) => `http://127.0.0.1:${port}`
  const searchUrl = `${origin((app.server.address() as { port: number }).port)}/knowledge/search`
  const bareUrl = `${origin((bare.server.address() as { port: number }).port)}/bare`
  // One keep-alive connection per server through undici's request(), as autocannon-like load tools
  // do: the WHATWG fetch() of Node 20 spends about 0.6 ms more of this process's CPU on each
  // request (printed below for the bare route), which is the client's cost, not the service's.
  const clients = new Map<string, Pool>()
  const clientOf = (origin: string) => {
    let client = clients.get(origin)
    if (client === undefined) {
      client = new Pool(origin, { connections: 1 })
      clients.set(origin, client)
      const opened = client
      defer(() => opened.close())
    }
    return client
  }
  const post = async (url: string, key: string, body: object) => {
    const { origin, pathname } = new URL(url)
    const res = await clientOf(origin).request({ path: pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${await res.body.text()}`)
    return await res.body.json() as { hits?: unknown[] }
  }
  const fetchPost = async (url: string, body: object) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
    return await res.json() as unknown
  }

  const rows: Array<Record<string, string | number | null>> = []
  const bareRoute = await timed(queries.map(() => () => post(bareUrl, 'none', {})))
  const bareFetch = await timed(queries.map(() => () => fetchPost(bareUrl, {})))
  const embedQuery = await timed(queries.map((q) => () => embedder.embed([processQuery(q)])))
  for (const [size, target] of [['1k', small], ['10k', large]] as const) {
    const chunks = size === '1k' ? ingestions[2]!.chunks : large10k.chunks
    const raw = rawKnowledge(join(dataDir, 'search', `${target.id}.knowledge.sqlite`), queries)
    for (const kind of ['keyword', 'hybrid'] as const) {
      log(`searching ${size} (${chunks} chunks), ${kind}`)
      const hybrid = kind === 'hybrid'
      const search = (i: number) => target.index.search({ q: processQuery(queries[i]!), limit: LIMIT, ...(hybrid ? { hybrid: { semanticRatio: 0.5, vector: vectors[i]! } } : {}) })
      const times = await timedSides(queries.length, {
        raw: (i) => { raw.keyword(i); if (hybrid) raw.vector(vectors[i]!) },
        engine: search,
        route: (i) => post(searchUrl, target.key, { query: queries[i], limit: LIMIT, search_type: kind })
      })
      let found = 0
      for (const i of queries.keys()) if ((await search(i)).length > 0) found++
      rows.push({
        chunks,
        kind,
        'raw p50 ms': round(times.raw.p50),
        'raw p95 ms': round(times.raw.p95),
        'engine p50 ms': round(times.engine.p50),
        'engine p95 ms': round(times.engine.p95),
        'HTTP p50 ms': round(times.route.p50),
        'HTTP p95 ms': round(times.route.p95),
        'engine/raw p50': round(times.engine.p50 / times.raw.p50),
        'HTTP/raw p50': round(times.route.p50 / times.raw.p50),
        'queries with a hit': `${Math.round(100 * found / queries.length)}%`
      })
    }
    raw.close()
  }

  // What a search pays right after a write, as a chat turn does while a crawl or an upload stores
  // pages: one page of the 10k hybrid index written again, then one search, in turn.
  log('searching 10k right after one-page writes')
  const afterWrite: number[] = []
  for (let i = 0; i < AFTER_WRITE_RUNS; i++) {
    const p = pages10k[i]!
    await ingestKnowledge(large.index, [{ ...p, content: `${p.content}\nUpdated ${i}.\n` }], embedder)
    const started = performance.now()
    await large.index.search({ q: processQuery(queries[i]!), limit: LIMIT, hybrid: { semanticRatio: 0.5, vector: vectors[i]! } })
    afterWrite.push(performance.now() - started)
  }
  const afterWriteStats = stats(afterWrite)
  const steady = rows.find((r) => r.kind === 'hybrid' && Number(r.chunks) > 5000)

  console.log(`\nKnowledge ingestion (ingestKnowledge, batches of ${BATCH} pages)`)
  console.table(ingestions.map((i) => ({ mode: i.label, pages: i.pages, chunks: i.chunks, seconds: round(i.seconds, 1), 'pages/s': round(i.pages / i.seconds, 1), 'chunks/s': round(i.chunks / i.seconds, 1) })))
  if (EMBED_ALL) console.table([{ mode: `with the ${env.EMBEDDER} embedder`, pages: large10k.pages, chunks: large10k.chunks, 'pages/s': round(large10k.pages / large10k.seconds, 1), 'chunks/s': round(large10k.chunks / large10k.seconds, 1) }])
  console.log(`\nKnowledge search: ${queries.length} queries, limit ${LIMIT}, one client. raw: the engine's FTS5 statement (LIMIT ${CANDIDATES}), plus for hybrid`)
  console.log(`an exact scan for the ${CANDIDATES} nearest vectors; engine: its search (hybrid given the vector); HTTP: POST /knowledge/search (hybrid embeds the query`)
  console.log('at 1k; at 10k the same queries come again and their kept vectors are used: a query searched for the first time adds "embedding one query")')
  console.table(rows)
  console.log(`bare Fastify route on the same client: p50 ${round(bareRoute.p50)} ms, p95 ${round(bareRoute.p95)} ms`)
  console.log(`the same bare route through fetch() instead (not used above): p50 ${round(bareFetch.p50)} ms, p95 ${round(bareFetch.p95)} ms`)
  console.log(`embedding one query (part of hybrid over HTTP): p50 ${round(embedQuery.p50)} ms, p95 ${round(embedQuery.p95)} ms`)
  console.log(`hybrid search at 10k right after a one-page write (engine, ${AFTER_WRITE_RUNS} runs): p50 ${round(afterWriteStats.p50)} ms, p95 ${round(afterWriteStats.p95)} ms; with no write between: p50 ${steady?.['engine p50 ms'] ?? '?'} ms`)
  for (const size of [1000, 10_000]) {
    const at = rows.filter((r) => Math.abs(Number(r.chunks) - size) < size / 2)
    const [kw, hy] = [at.find((r) => r.kind === 'keyword'), at.find((r) => r.kind === 'hybrid')]
    if (kw !== undefined && hy !== undefined) console.log(`~${size} chunks: hybrid/keyword p50 over HTTP ${round(Number(hy['HTTP p50 ms']) / Number(kw['HTTP p50 ms']))}×`)
  }
  console.log(`\ndone in ${((performance.now() - began) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(2)}`)
  console.log(JSON.stringify({
    ingestion: ingestions.map((i) => ({ mode: i.label, pages: i.pages, chunks: i.chunks, pagesPerSecond: round(i.pages / i.seconds, 1), chunksPerSecond: round(i.chunks / i.seconds, 1) })),
    search: rows,
    bare: { p50: round(bareRoute.p50), p95: round(bareRoute.p95) },
    bareFetch: { p50: round(bareFetch.p50), p95: round(bareFetch.p95) },
    embedQuery: { p50: round(embedQuery.p50), p95: round(embedQuery.p95) },
    afterWrite: { p50: round(afterWriteStats.p50), p95: round(afterWriteStats.p95) }
  }))
}

try {
  await main()
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  process.exitCode = 1
} finally {
  await cleanup()
}
