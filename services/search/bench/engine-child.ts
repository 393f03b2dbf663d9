// The embedded engine's side of the search benchmark, in a process of its own (started by
// search.ts): a query that runs for minutes inside SQLite cannot be interrupted from JavaScript, but
// a process can be killed, and every process's RSS is its own.
//
//   embed <dir> <count>         ingest `count` items with the real embedder; save their vectors (the
//                               pool lent to the big catalogs) and the query vectors
//   ingest <dir> <size>         ingest `size` items keyword-only, then attach pooled vectors
//   query <dir> <size> <cases>  time the query cases (comma-separated) on the index ingest built
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { loadEmbedder, type Embedder } from '@chatsearch/embeddings'
import { productsOf, type Product } from '../catalog/generate.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { storeVector } from '../src/engines/embedded/vector-codes.js'
import type { EngineIndex, SearchQuery } from '../src/engine/port.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { parseFilter } from '@chatsearch/filter'
import { processQuery } from '../src/text.js'
import { BATCH, CASES, EMBEDDER, FACETS, FILTERS, LIMIT, PROJECT, QUERY_COUNT, SEED, SUGGEST_LIMIT, benchSettings, keywordQueries, prefixes, productType, typoQueries, type CaseName } from './workload.js'
import { toParent } from '@chatsearch/testkit/bench-child'

export interface EmbedReport {
  items: number
  modelLoadMs: number
  seconds: number
  itemsPerSecond: number
  /** Time spent inside the model, per item. */
  modelMsPerItem: number
  distinctTypes: number
}
export interface IngestReport {
  items: number
  seconds: number
  itemsPerSecond: number
  cpuSeconds: number
  /** Items whose type had no vector in the pool and got one of their category's (or any) instead. */
  vectorFallbacks: number
  vectorAttachSeconds: number
  /** Bytes on disk after the keyword-only import, and after the vectors were attached. */
  keywordOnly: { file: number, wal: number }
  withVectors: { file: number, wal: number }
  rssAfterIngest: number
  maxRss: number
}
export interface QueryReadyReport { openMs: number, firstQueryMs: number, rssAfterLoad: number }
export interface CaseEnd { name: CaseName, meanHits: number, rss: number, maxRss: number }

export type ChildMessage =
  | { type: 'embedded', report: EmbedReport }
  | { type: 'ingested', report: IngestReport }
  | { type: 'ready', report: QueryReadyReport }
  | { type: 'case-start', name: CaseName }
  | { type: 'run', name: CaseName, ms: number, warmup: boolean }
  | { type: 'case-end', end: CaseEnd }
  | { type: 'done' }

const send = (message: ChildMessage) => toParent(message)
const log = (line: string) => process.stderr.write(`[bench:child] ${line}\n`)
// The benchmark went away: do not linger.
process.on('disconnect', () => process.exit(0))

const files = (dir: string) => ({
  poolVectors: join(dir, 'pool-vectors.f32'),
  poolTypes: join(dir, 'pool-types.json'),
  queryVectors: join(dir, 'query-vectors.f32'),
  index: (size: number) => join(dir, `index-${size}`)
})
const sizeOf = (file: string) => { try { return statSync(file).size } catch { return 0 } }
const onDisk = (dir: string) => ({ file: sizeOf(join(dir, `${PROJECT}.sqlite`)), wal: sizeOf(join(dir, `${PROJECT}.sqlite-wal`)) })
const maxRss = () => process.resourceUsage().maxRSS * 1024

function * batches (count: number): Generator<Product[]> {
  let batch: Product[] = []
  for (const p of productsOf(count, SEED)) {
    batch.push(p)
    if (batch.length === BATCH) { yield batch; batch = [] }
  }
  if (batch.length > 0) yield batch
}

async function embed (root: string, count: number) {
  const f = files(root)
  let started = performance.now()
  const model = await loadEmbedder()
  const modelLoadMs = performance.now() - started
  // Every vector the model gives is kept, in order: they are the pool the big catalogs borrow from.
  const vectors: Float32Array[] = []
  let modelMs = 0
  const recording: Embedder = {
    dimensions: model.dimensions,
    async embed (texts) {
      const t = performance.now()
      const out = await model.embed(texts)
      modelMs += performance.now() - t
      vectors.push(...out)
      return out
    }
  }
  const engine = new EmbeddedEngine(join(root, 'embed'), EMBEDDER)
  const index = await engine.index(PROJECT)
  const types: string[] = []
  let seconds = 0
  for (const batch of batches(count)) {
    if (types.length === 0) await index.updateSettings(benchSettings(batch))
    for (const p of batch) types.push(productType(p))
    started = performance.now()
    await ingestDocuments(index, batch, recording)
    seconds += (performance.now() - started) / 1000
    log(`embedded ${types.length}/${count} items (${(types.length / seconds).toFixed(0)} items/s)`)
  }
  await engine.close()
  if (vectors.length !== count) throw new Error(`expected ${count} vectors, got ${vectors.length}`)
  writeFileSync(f.poolVectors, Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))))
  writeFileSync(f.poolTypes, JSON.stringify(types))
  // The hybrid case's query vectors, computed here so that no query pays for the model.
  const queries = await model.embed(keywordQueries(QUERY_COUNT).map(processQuery))
  writeFileSync(f.queryVectors, Buffer.concat(queries.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))))
  await send({
    type: 'embedded',
    report: { items: count, modelLoadMs, seconds, itemsPerSecond: count / seconds, modelMsPerItem: modelMs / count, distinctTypes: new Set(types).size }
  })
}

function readVectors (file: string, dimensions: number): Float32Array[] {
  const buf = readFileSync(file)
  const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4)
  return Array.from({ length: all.length / dimensions }, (_, i) => all.slice(i * dimensions, (i + 1) * dimensions))
}

async function ingest (root: string, size: number) {
  const f = files(root)
  const dir = f.index(size)
  const engine = new EmbeddedEngine(dir, EMBEDDER)
  const index = await engine.index(PROJECT)
  const types: string[] = []
  let seconds = 0
  const cpu = process.cpuUsage()
  for (const batch of batches(size)) {
    if (types.length === 0) await index.updateSettings(benchSettings(batch))
    for (const p of batch) types.push(productType(p))
    const started = performance.now()
    await ingestDocuments(index, batch, undefined)
    seconds += (performance.now() - started) / 1000
    if (types.length % (size / 10) === 0) log(`${size}: ingested ${types.length} items keyword-only (${(types.length / seconds).toFixed(0)} items/s)`)
  }
  const used = process.cpuUsage(cpu)
  // CPU time includes generating the batches (a few % of it); the wall-clock figure does not.
  const cpuSeconds = (used.user + used.system) / 1e6
  const keywordOnly = onDisk(dir)
  const rssAfterIngest = process.memoryUsage().rss
  await engine.close()

  // Vectors for every item: the pool's vector of an item of the same product type (by position,
  // round robin), straight into the vectors table through a second connection.
  const pool = readVectors(f.poolVectors, EMBEDDER.dimensions)
  const poolTypes = JSON.parse(readFileSync(f.poolTypes, 'utf8')) as string[]
  const byType = new Map<string, number[]>()
  const byCategory = new Map<string, number[]>()
  poolTypes.forEach((t, i) => {
    let list = byType.get(t)
    if (list === undefined) byType.set(t, list = [])
    list.push(i)
    const category = t.split('|')[0]!
    let inCategory = byCategory.get(category)
    if (inCategory === undefined) byCategory.set(category, inCategory = [])
    inCategory.push(i)
  })
  let vectorFallbacks = 0
  const started = performance.now()
  const db = new Database(join(dir, `${PROJECT}.sqlite`))
  sqliteVec.load(db)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  const rows = db.prepare('SELECT rowid, id FROM documents').all() as Array<{ rowid: number, id: string }>
  const statements = new Map<string, Database.Statement>()
  const sql = (text: string) => statements.get(text) ?? statements.set(text, db.prepare(text)).get(text)!
  db.transaction(() => {
    for (const { rowid, id } of rows) {
      const item = Number(id.slice(4)) - 1
      const type = types[item]!
      let candidates = byType.get(type)
      if (candidates === undefined) {
        vectorFallbacks++
        candidates = byCategory.get(type.split('|')[0]!) ?? [item % pool.length]
      }
      storeVector(sql, rowid, pool[candidates[item % candidates.length]!]!)
    }
  })()
  db.close()
  const vectorAttachSeconds = (performance.now() - started) / 1000
  await send({
    type: 'ingested',
    report: {
      items: size,
      seconds,
      itemsPerSecond: size / seconds,
      cpuSeconds,
      vectorFallbacks,
      vectorAttachSeconds,
      keywordOnly,
      withVectors: onDisk(dir),
      rssAfterIngest,
      maxRss: maxRss()
    }
  })
}

/** The i-th query of a case; the lists are fixed (seeded), so every run of the benchmark asks the same. */
function caseQuery (name: CaseName, i: number, lists: Lists): SearchQuery {
  const base = { filter: null, facets: [], limit: LIMIT, offset: 0 }
  const n = i % QUERY_COUNT
  switch (name) {
    case 'keyword': return { ...base, q: processQuery(lists.keyword[n]!) }
    case 'typo': return { ...base, q: processQuery(lists.typo[n]!) }
    case 'kwFilterFacets': return { ...base, q: processQuery(lists.keyword[n]!), filter: lists.filters[i % lists.filters.length]!, facets: FACETS }
    case 'browseFilterFacets': return { ...base, q: '', filter: lists.filters[i % lists.filters.length]!, facets: FACETS }
    case 'hybrid': return { ...base, q: processQuery(lists.keyword[n]!), hybrid: { semanticRatio: 0.7, vector: lists.vectors[n]! } }
    case 'autocomplete': throw new Error('autocomplete is not a search')
  }
}

interface Lists { keyword: string[], typo: string[], prefixes: string[], filters: ReturnType<typeof parseFilter>[], vectors: Float32Array[] }

async function query (root: string, size: number, cases: CaseName[]) {
  const f = files(root)
  const budgetMs = Number(process.env.BENCH_CASE_BUDGET_S ?? 15) * 1000
  const warmupMs = Number(process.env.BENCH_WARMUP_BUDGET_S ?? 3) * 1000
  const lists: Lists = {
    keyword: keywordQueries(QUERY_COUNT),
    typo: typoQueries(QUERY_COUNT),
    prefixes: prefixes(QUERY_COUNT),
    filters: FILTERS.map(parseFilter),
    vectors: readVectors(f.queryVectors, EMBEDDER.dimensions)
  }
  let started = performance.now()
  const engine = new EmbeddedEngine(f.index(size), EMBEDDER)
  const index: EngineIndex = await engine.index(PROJECT)
  const openMs = performance.now() - started
  started = performance.now()
  // The first query reads the whole vocabulary into the typo trie.
  await index.search({ q: 'warm', filter: null, facets: [], limit: LIMIT, offset: 0 })
  const firstQueryMs = performance.now() - started
  await send({ type: 'ready', report: { openMs, firstQueryMs, rssAfterLoad: process.memoryUsage().rss } })

  const run = async (name: CaseName, i: number): Promise<number> => {
    if (name === 'autocomplete') return (await index.suggest(lists.prefixes[i % QUERY_COUNT]!, SUGGEST_LIMIT, 0)).length
    return (await index.search(caseQuery(name, i, lists))).estimatedTotalHits
  }
  for (const name of cases) {
    await send({ type: 'case-start', name })
    // Warm-up: up to 20 queries of the kind (other ones than those measured first), at most `warmupMs`.
    const warmStart = performance.now()
    for (let i = 0; i < 20 && performance.now() - warmStart < warmupMs; i++) {
      const t = performance.now()
      await run(name, QUERY_COUNT - 1 - i)
      await send({ type: 'run', name, ms: performance.now() - t, warmup: true })
    }
    // Measured: QUERY_COUNT queries, or fewer when they take longer than `budgetMs` in all.
    const caseStart = performance.now()
    let hits = 0
    let runs = 0
    for (let i = 0; i < QUERY_COUNT && performance.now() - caseStart < budgetMs; i++) {
      const t = performance.now()
      hits += await run(name, i)
      runs++
      await send({ type: 'run', name, ms: performance.now() - t, warmup: false })
    }
    await send({ type: 'case-end', end: { name, meanHits: hits / Math.max(runs, 1), rss: process.memoryUsage().rss, maxRss: maxRss() } })
  }
  await engine.close()
}

const [mode, root, arg, casesArg] = process.argv.slice(2)
try {
  if (root === undefined || arg === undefined) throw new Error('usage: engine-child.ts embed|ingest|query <dir> <count> [cases]')
  if (mode === 'embed') await embed(root, Number(arg))
  else if (mode === 'ingest') await ingest(root, Number(arg))
  else if (mode === 'query') await query(root, Number(arg), (casesArg ?? CASES.join(',')).split(',') as CaseName[])
  else throw new Error(`unknown mode ${mode}`)
  await send({ type: 'done' })
  process.exit(0)
} catch (err) {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err))
  process.exit(1)
}
