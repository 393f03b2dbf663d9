// The engine CPU benchmark's child (started by engine-cpu.ts), one process per job:
//   build <dir> <size>           ingest `size` generated items with bag-of-words vectors, then mark `ready`
//   measure <dir> <size>         CPU µs per request of each kind, service against raw SQL
//   cold <dir> <size> <kind>     open a fresh index and time the first request of `kind`
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import type { Embedder } from '@chatsearch/embeddings'
import { mulberry32, productsOf, type Product } from '../catalog/generate.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { planLevels } from '../src/engines/embedded/keyword.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import type { EngineIndex, SearchQuery } from '../src/engine/port.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { parseFilter } from '@chatsearch/filter'
import { processQuery, tokenize } from '../src/text.js'
import { BATCH, EMBEDDER, builtMark, FACETS, LIMIT, PROJECT, SEED, benchSettings, keywordQueries, typoQueries } from './workload.js'
import { toParent } from '@chatsearch/testkit/bench-child'

export const KINDS = ['keyword', 'typo', 'kwFacets', 'kwFilterFacets', 'browseFilterFacets', 'hybrid'] as const
export type Kind = typeof KINDS[number]
export interface KindResult {
  kind: Kind
  serviceCpuUs: number
  rawCpuUs: number
  ratio: number
  p50Ms: number
  rawP50Ms: number
  meanHits: number
}
export type CpuChildMessage =
  | { type: 'measured', result: KindResult }
  | { type: 'cold', kind: Kind, openMs: number, firstMs: number }

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
const WARMUP = 20
/** The filters of the filtered kinds, as the service gets them and as SQL over the fields table. */
const PRICES = [50, 100, 150, 200, 300, 500]
const log = (line: string) => process.stderr.write(`[bench:engine] ${line}\n`)
const send = (message: CpuChildMessage) => toParent(message)
process.on('disconnect', () => process.exit(0))

/** A bag-of-words embedding: each word a seeded random direction, a text their sum. Cheap, deterministic, and similar texts get similar vectors. */
const wordVectors = new Map<string, Float32Array>()
function embedText (text: string): Float32Array {
  const out = new Float32Array(EMBEDDER.dimensions)
  for (const word of tokenize(text)) {
    let v = wordVectors.get(word)
    if (v === undefined) {
      let seed = 0
      for (const ch of word) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619) >>> 0
      const r = mulberry32(seed)
      v = Float32Array.from({ length: EMBEDDER.dimensions }, () => r() - 0.5)
      wordVectors.set(word, v)
    }
    for (let d = 0; d < out.length; d++) out[d]! += v[d]!
  }
  return out
}
const embedder: Embedder = { dimensions: EMBEDDER.dimensions, embed: async (texts) => texts.map(embedText) }

async function build (dir: string, size: number) {
  const engine = new EmbeddedEngine(dir, EMBEDDER)
  const index = await engine.index(PROJECT)
  let batch: Product[] = []
  let done = 0
  const started = performance.now()
  const flush = async () => {
    if (done === 0) await index.updateSettings(benchSettings(batch))
    await ingestDocuments(index, batch, embedder)
    done += batch.length
    batch = []
    if (done % (size / 10) === 0) log(`${size}: built ${done} items (${(done / ((performance.now() - started) / 1000)).toFixed(0)} items/s)`)
  }
  for (const p of productsOf(size, SEED)) {
    batch.push(p)
    if (batch.length === BATCH) await flush()
  }
  if (batch.length > 0) await flush()
  await engine.close()
  writeFileSync(join(dir, 'ready'), builtMark(size))
}

/**
 * `levels`: the FTS5 expression of each level of the words rule (matching strategy `last`, the
 * service's default: every word, then without the last word, and so on), each its widest tier
 * (typo variants included); undefined for a browse.
 */
interface Request { query: SearchQuery, levels: string[] | undefined, price: number }

function requests (kind: Kind, vocabulary: Vocabulary): Request[] {
  const texts = kind === 'typo' ? typoQueries(REQUESTS + WARMUP) : keywordQueries(REQUESTS + WARMUP)
  return texts.map((text, i) => {
    const q = kind === 'browseFilterFacets' ? '' : processQuery(text)
    const price = PRICES[i % PRICES.length]!
    const filtered = kind === 'kwFilterFacets' || kind === 'browseFilterFacets'
    const query: SearchQuery = {
      q,
      filter: filtered ? parseFilter(`price < ${price} AND in_stock = true`) : null,
      facets: filtered || kind === 'kwFacets' ? FACETS : [],
      limit: LIMIT,
      offset: 0
    }
    if (kind === 'hybrid') query.hybrid = { semanticRatio: 0.7, vector: embedText(text) }
    // `last` never counts documents per word: only `frequency` calls documentsWith.
    return { query, levels: planLevels(q, vocabulary, 'last', () => 0)?.map((level) => level.tiers.at(-1)!), price }
  })
}

/**
 * The raw better-sqlite3 statements a request reduces to, as Meilisearch's matching strategy `last`
 * defines the answer: the matches of every word ranked by bm25, then, while the page is not full,
 * those of the next level (one word fewer) that the level before did not match; the total and the
 * facets over the last level's matches, which hold every level's. A request whose every word fills
 * the page runs one statement, as before this strategy.
 */
function rawRunner (db: Database.Database, columns: number) {
  const weights = Array.from({ length: Math.max(columns, 1) }, (_, i) => Math.max(1, 10 - 3 * i)).join(', ')
  // `+rowid`: without it SQLite hands each allowed rowid to FTS5 as a lookup, one MATCH per row.
  const filterSql = `+rowid IN (SELECT doc FROM fields WHERE attr = 'price' AND num < ?
    INTERSECT SELECT doc FROM fields WHERE attr = 'in_stock' AND str = 'true' AND kind = 3)`
  // FTS5's bm25() cannot sit beside a window function: the matches are materialised once, then paged.
  const page = (where: string, order: string) => db.prepare(`WITH a AS MATERIALIZED (SELECT rowid, ${order} AS score FROM ${where}),
    m AS (SELECT rowid, score, count(*) OVER () AS total FROM a ORDER BY score LIMIT ?)
    SELECT m.total, d.body FROM m JOIN documents d ON d.rowid = m.rowid ORDER BY m.score`)
  const facets = (matches: string) => db.prepare(`WITH m AS MATERIALIZED (${matches})
    SELECT f.attr, f.str AS label, count(*) AS n FROM m JOIN fields f ON f.doc = m.rowid
    WHERE f.attr IN (${FACETS.map(() => '?').join(', ')}) AND f.str IS NOT NULL GROUP BY f.attr, f.str`)
  const excluding = 'AND rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)'
  const keywordPage = page('fts WHERE fts MATCH ?', `bm25(fts, ${weights})`)
  const keywordNext = page(`fts WHERE fts MATCH ? ${excluding}`, `bm25(fts, ${weights})`)
  const filteredPage = page(`fts WHERE fts MATCH ? AND ${filterSql}`, `bm25(fts, ${weights})`)
  const filteredNext = page(`fts WHERE fts MATCH ? ${excluding} AND ${filterSql}`, `bm25(fts, ${weights})`)
  const count = db.prepare('SELECT count(*) FROM fts WHERE fts MATCH ?').pluck()
  const countFiltered = db.prepare(`SELECT count(*) FROM fts WHERE fts MATCH ? AND ${filterSql}`).pluck()
  const browsePage = page(`documents WHERE ${filterSql}`, 'rowid')
  const keywordFacets = facets(`SELECT rowid FROM fts WHERE fts MATCH ? AND ${filterSql}`)
  const matchFacets = facets('SELECT rowid FROM fts WHERE fts MATCH ?')
  const browseFacets = facets(`SELECT rowid FROM documents WHERE ${filterSql}`)
  const nearest = db.prepare('SELECT rowid FROM vectors WHERE embedding MATCH ? AND k = ?').pluck()
  const load = db.prepare('SELECT body FROM documents WHERE rowid IN (SELECT value FROM json_each(?))').pluck()
  const keywordRowids = db.prepare(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, ${weights}) LIMIT ?`).pluck()
  const countFacets = (rows: Array<{ attr: string, label: string, n: number }>) => {
    const out: Record<string, Record<string, number>> = {}
    for (const r of rows) (out[r.attr] ??= {})[r.label] = r.n
    return out
  }
  type Row = { total: number, body: string }
  /** The page over the levels (the filter's price bound when filtered) and the total of matches. */
  const words = (levels: string[], price?: number): number => {
    const filter = price === undefined ? [] : [price]
    const rows = (price === undefined ? keywordPage : filteredPage).all(levels[0], ...filter, LIMIT) as Row[]
    let total = rows[0]?.total ?? 0
    if (levels.length === 1) return hits(rows, total)
    for (let l = 1; l < levels.length && rows.length < LIMIT; l++) {
      rows.push(...(price === undefined ? keywordNext : filteredNext).all(levels[l], levels[l - 1], ...filter, LIMIT - rows.length) as Row[])
    }
    total = (price === undefined ? count : countFiltered).get(levels.at(-1), ...filter) as number
    return hits(rows, total)
  }
  const hits = (rows: Row[], total: number) => {
    for (const r of rows) JSON.parse(r.body)
    return total
  }
  return (kind: Kind, r: Request): number => {
    switch (kind) {
      case 'keyword':
      case 'typo':
        return r.levels === undefined ? 0 : words(r.levels)
      case 'kwFacets': {
        if (r.levels === undefined) return 0
        const total = words(r.levels)
        countFacets(matchFacets.all(r.levels.at(-1), ...FACETS) as Array<{ attr: string, label: string, n: number }>)
        return total
      }
      case 'kwFilterFacets': {
        if (r.levels === undefined) return 0
        const total = words(r.levels, r.price)
        countFacets(keywordFacets.all(r.levels.at(-1), r.price, ...FACETS) as Array<{ attr: string, label: string, n: number }>)
        return total
      }
      case 'browseFilterFacets': {
        const rows = browsePage.all(r.price, LIMIT) as Row[]
        countFacets(browseFacets.all(r.price, ...FACETS) as Array<{ attr: string, label: string, n: number }>)
        return hits(rows, rows[0]?.total ?? 0)
      }
      case 'hybrid': {
        const depth = LIMIT + 20
        // The keyword side of a hybrid search ranks the matches of every word (the first level).
        const keyword = r.levels === undefined ? [] : keywordRowids.all(r.levels[0], depth) as number[]
        const semantic = nearest.all(r.query.hybrid!.vector, depth) as number[]
        const scores = new Map<number, number>()
        keyword.forEach((rowid, rank) => scores.set(rowid, (scores.get(rowid) ?? 0) + 0.3 / (60 + rank)))
        semantic.forEach((rowid, rank) => scores.set(rowid, (scores.get(rowid) ?? 0) + 0.7 / (60 + rank)))
        const top = [...scores].sort((a, b) => b[1] - a[1]).slice(0, LIMIT).map(([rowid]) => rowid)
        for (const body of load.all(JSON.stringify(top)) as string[]) JSON.parse(body)
        return scores.size
      }
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/**
 * Reads the index file once, so that the OS holds it in memory: otherwise the side measured first
 * (the service) reads it from disk for both, and its figure includes that I/O: keyword at 50k came
 * out 1.59x after dropping the OS cache, 1.31x with this read first.
 */
function warmFileCache (file: string) {
  const fd = openSync(file, 'r')
  const buffer = Buffer.alloc(1 << 20)
  try {
    while (readSync(fd, buffer, 0, buffer.length, null) > 0) { /* read on */ }
  } finally {
    closeSync(fd)
  }
}

async function measure (dir: string, size: number) {
  warmFileCache(join(dir, `${PROJECT}.sqlite`))
  const engine = new EmbeddedEngine(dir, EMBEDDER)
  const index: EngineIndex = await engine.index(PROJECT)
  const db = new Database(join(dir, `${PROJECT}.sqlite`), { readonly: true })
  sqliteVec.load(db)
  db.pragma('cache_size = -65536')
  const vocabulary = new Vocabulary(db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[])
  const columns = (await index.settings()).searchableAttributes.length
  const raw = rawRunner(db, columns)
  for (const kind of KINDS) {
    const list = requests(kind, vocabulary)
    const sides = {
      service: async (r: Request) => (await index.search(r.query)).estimatedTotalHits,
      raw: (r: Request) => raw(kind, r)
    }
    for (const r of list.slice(REQUESTS)) {
      await sides.service(r)
      sides.raw(r)
    }
    // Interleaved, each side timed per request and first every other request: a burst of other work
    // on the machine lands on both sides instead of skewing the one measured during it.
    const measured = { service: { cpuUs: 0, times: [] as number[], hits: 0 }, raw: { cpuUs: 0, times: [] as number[], hits: 0 } }
    for (const [i, r] of list.slice(0, REQUESTS).entries()) {
      for (const side of i % 2 === 0 ? ['service', 'raw'] as const : ['raw', 'service'] as const) {
        const cpu = process.cpuUsage()
        const t = performance.now()
        measured[side].hits += await sides[side](r)
        measured[side].times.push(performance.now() - t)
        const used = process.cpuUsage(cpu)
        measured[side].cpuUs += used.user + used.system
      }
    }
    const summary = (m: typeof measured.raw) => ({ cpuUs: m.cpuUs / REQUESTS, p50: median(m.times), hits: m.hits / REQUESTS })
    const service = summary(measured.service)
    const bare = summary(measured.raw)
    const result: KindResult = {
      kind,
      serviceCpuUs: service.cpuUs,
      rawCpuUs: bare.cpuUs,
      ratio: service.cpuUs / bare.cpuUs,
      p50Ms: service.p50,
      rawP50Ms: bare.p50,
      meanHits: service.hits
    }
    log(`${size} ${kind}: service ${service.cpuUs.toFixed(0)} µs, raw ${bare.cpuUs.toFixed(0)} µs (hits ${service.hits.toFixed(0)} vs raw ${bare.hits.toFixed(0)})`)
    await send({ type: 'measured', result })
  }
  db.close()
  await engine.close()
}

async function cold (dir: string, kind: Kind) {
  // What is timed is the engine's own start (opening, deriving what the first request needs), not the
  // disk: after the 200k measurement the OS had sometimes dropped this file, and a first keyword
  // answer then took 1.8 s instead of 0.08 s.
  warmFileCache(join(dir, `${PROJECT}.sqlite`))
  let started = performance.now()
  const engine = new EmbeddedEngine(dir, EMBEDDER)
  const index = await engine.index(PROJECT)
  const openMs = performance.now() - started
  const [request] = requests(kind, new Vocabulary())
  started = performance.now()
  await index.search(request!.query)
  const firstMs = performance.now() - started
  await send({ type: 'cold', kind, openMs, firstMs })
  await engine.close()
}

const [mode, dir, size, kind] = process.argv.slice(2)
try {
  if (dir === undefined || size === undefined) throw new Error('usage: engine-cpu-child.ts build|measure|cold <dir> <size> [kind]')
  if (mode === 'build') await build(dir, Number(size))
  else if (mode === 'measure') await measure(dir, Number(size))
  else if (mode === 'cold') await cold(dir, kind as Kind)
  else throw new Error(`unknown mode ${mode}`)
  process.exit(0)
} catch (err) {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err))
  process.exit(1)
}
