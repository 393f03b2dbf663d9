// `pnpm bench embed`: the bundled embedders in one run: USE-lite on the event loop (the baseline), USE-lite
// on the worker-thread pool with its batcher (EMBED_THREADS threads, 1 by default; EMBEDDER=use-lite, the
// default), and the static embedder (EMBEDDER=static: on the event loop, in slices).
//   (a) texts/s embedding short texts (2–3 word shopper queries, as chat messages and hybrid searches
//       send them) one call at a time, and from 32 concurrent callers of one text each
//       (BENCH_EMBED_TEXTS texts, 256 by default), with the event loop's longest stall meanwhile;
//   (b) the event loop's delay (perf_hooks.monitorEventLoopDelay, 1 ms resolution: max, p99, mean) on
//       the thread that imports BENCH_ITEMS generated catalog items (5,000 by default) through the
//       search ingestion path (ingestDocuments into an embedded engine, slices of 500 as a catalog
//       import task writes them, with the service's reader and writer threads: SEARCH_READERS, 2 by
//       default; 0 writes on this thread). Goal: never blocked more than 20 ms. 50,000 items take about
//       7 minutes of CPU per embedder at ~9 ms a text.
// Bounded by BENCH_DEADLINE_S (1,800 s); the temporary index is removed, also on Ctrl-C. Progress on
// stderr, the table and one line of JSON on stdout.
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createPooledEmbedder, inThreadEmbedder, loadStaticEmbedder, type Embedder } from '@chatsearch/embeddings'
import { generateCatalog } from '../catalog/generate.js'
import { readSearchEnv } from '../src/config.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { IMPORT_SLICE } from '../src/tasks/catalog-import.js'
import { benchSettings, EMBEDDER, keywordQueries, round, SEED } from './workload.js'

const ITEMS = Number(process.env.BENCH_ITEMS ?? 5_000)
const TEXTS = Number(process.env.BENCH_EMBED_TEXTS ?? 256)
const THREADS = Number(process.env.EMBED_THREADS ?? 1)
const CALLERS = 32
// The engine's threads as the service starts them (SEARCH_READERS, SEARCH_THREAD_NICE): with readers,
// batches are written on the writer thread, as in the service; SEARCH_READERS=0 writes on this thread.
const { SEARCH_READERS: READERS, SEARCH_THREAD_NICE: THREAD_NICE } = readSearchEnv()
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 1800) * 1000

const began = performance.now()
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const undo: Array<() => unknown> = []
async function cleanup () {
  for (const fn of undo.reverse()) await Promise.resolve(fn()).catch(() => {})
}
setTimeout(() => {
  log(`deadline of ${DEADLINE_MS / 1000} s reached: stopping`)
  cleanup().finally(() => process.exit(1))
}, DEADLINE_MS).unref()
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { cleanup().finally(() => process.exit(130)) })

interface Stall { maxMs: number, p99Ms: number, meanMs: number }

/** Runs `work` while sampling the event loop's delay on this thread. */
async function watched<T> (work: () => Promise<T>): Promise<{ value: T, seconds: number, stall: Stall }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  // The histogram's first tick only starts its clock: let it pass, so a first long block is counted.
  await new Promise((resolve) => setTimeout(resolve, 5))
  const started = performance.now()
  const value = await work()
  const seconds = (performance.now() - started) / 1000
  // Work that never yields to the timers phase leaves no sample until the histogram's timer runs again.
  await new Promise((resolve) => setTimeout(resolve, 5))
  histogram.disable()
  const ms = (ns: number) => round(ns / 1e6, 1)!
  return { value, seconds, stall: { maxMs: ms(histogram.max), p99Ms: ms(histogram.percentile(99)), meanMs: ms(histogram.mean) } }
}

/** Texts/s of `texts` embedded one call at a time, then from CALLERS callers at once (one text a call). */
async function throughput (embedder: Embedder, texts: string[]) {
  const sequential = await watched(async () => { for (const text of texts) await embedder.embed([text]) })
  let next = 0
  const concurrent = await watched(() => Promise.all(Array.from({ length: CALLERS }, async () => {
    while (next < texts.length) await embedder.embed([texts[next++]!])
  })))
  return {
    sequential: { textsPerS: round(texts.length / sequential.seconds, 1)!, stall: sequential.stall },
    concurrent: { textsPerS: round(texts.length / concurrent.seconds, 1)!, stall: concurrent.stall }
  }
}

/** ITEMS generated products imported through ingestDocuments, slice by slice, into a fresh index. */
async function importCatalog (embedder: Embedder | undefined, dir: string, name: string) {
  const engine = new EmbeddedEngine(join(dir, name), EMBEDDER, READERS, THREAD_NICE)
  try {
    const index = await engine.index('bench')
    // The longest write: with SEARCH_READERS=0 it runs on this thread, and tells its share of the stalls from the embedder's.
    let longestWriteMs = 0
    const upsert = index.upsert.bind(index)
    index.upsert = async (documents) => {
      const started = performance.now()
      try { return await upsert(documents) } finally { longestWriteMs = Math.max(longestWriteMs, performance.now() - started) }
    }
    const catalog = generateCatalog(ITEMS, SEED)
    await index.updateSettings(benchSettings(catalog.slice(0, IMPORT_SLICE)))
    const run = await watched(async () => {
      for (let start = 0; start < catalog.length; start += IMPORT_SLICE) {
        await ingestDocuments(index, catalog.slice(start, start + IMPORT_SLICE), embedder)
        if ((start / IMPORT_SLICE) % 4 === 3) log(`${name}: ${start + IMPORT_SLICE}/${catalog.length} items`)
      }
    })
    return { itemsPerS: round(ITEMS / run.seconds, 1)!, seconds: round(run.seconds, 1)!, stall: run.stall, longestWriteMs: round(longestWriteMs, 1)! }
  } finally {
    await engine.close()
  }
}

async function main () {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-embed-bench-'))
  undo.push(() => rm(dir, { recursive: true, force: true }))
  log(`${ITEMS} items, ${TEXTS} texts, ${THREADS} pool thread(s), ${READERS} reader thread(s) and ${READERS > 0 ? 'a writer thread' : 'writes on this thread'}; load average ${loadavg()[0]!.toFixed(2)}`)
  const inThread = await inThreadEmbedder()
  const pool = await createPooledEmbedder(THREADS)
  undo.push(() => pool.close())
  const staticEmbedder = await loadStaticEmbedder()

  // Short texts, as chat messages and hybrid queries send them one a request; catalog items come in (b).
  const texts = keywordQueries(TEXTS)

  log('(a) texts/s: in-thread')
  const oldRate = await throughput(inThread, texts)
  log('(a) texts/s: pool')
  const before = pool.stats
  const newRate = await throughput(pool, texts)
  const batches = pool.stats.batches - before.batches
  log('(a) texts/s: static')
  const staticRate = await throughput(staticEmbedder, texts)
  log(`(b) import of ${ITEMS} items: in-thread`)
  const oldImport = await importCatalog(inThread, dir, 'in-thread')
  log(`(b) import of ${ITEMS} items: pool`)
  const newImport = await importCatalog(pool, dir, 'pool')
  log(`(b) import of ${ITEMS} items: static`)
  const staticImport = await importCatalog(staticEmbedder, dir, 'static')
  // What the rest of the path (validation, hashing, SQLite writes) costs the event loop by itself, and
  // what the machine's other load does to an idle loop: the floor the embedder cannot go below.
  log(`(b) import of ${ITEMS} items: no embedder (the writes alone)`)
  const writesOnly = await importCatalog(undefined, dir, 'writes-only')
  log('idle event loop, 5 s')
  const idle = await watched(() => new Promise((resolve) => setTimeout(resolve, 5000)))

  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
  const goal = (maxMs: number) => maxMs <= 20 ? 'goal ≤ 20 ms: met' : 'goal ≤ 20 ms: missed'
  const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`
  const lines = [
    `Embedding: the bundled USE-lite on the event loop (baseline), on a pool of ${THREADS} worker thread(s) with the batcher (EMBEDDER=use-lite), and the static embedder (EMBEDDER=static); ${READERS > 0 ? 'writes on the writer thread' : 'writes on the event loop'}; load average ${loadavg()[0]!.toFixed(2)}`,
    '',
    row(['measure', 'USE-lite in-thread (baseline)', 'USE-lite pool', 'pool / baseline', 'static', 'static / baseline']),
    row(['---', '---', '---', '---', '---', '---']),
    row(['short texts/s, one call at a time', oldRate.sequential.textsPerS, newRate.sequential.textsPerS, ratio(newRate.sequential.textsPerS, oldRate.sequential.textsPerS), staticRate.sequential.textsPerS, ratio(staticRate.sequential.textsPerS, oldRate.sequential.textsPerS)]),
    row([`short texts/s, ${CALLERS} concurrent callers`, oldRate.concurrent.textsPerS, newRate.concurrent.textsPerS, ratio(newRate.concurrent.textsPerS, oldRate.concurrent.textsPerS), staticRate.concurrent.textsPerS, ratio(staticRate.concurrent.textsPerS, oldRate.concurrent.textsPerS)]),
    row([`event loop max stall, ${CALLERS} callers (ms)`, oldRate.concurrent.stall.maxMs, newRate.concurrent.stall.maxMs, '', staticRate.concurrent.stall.maxMs, '']),
    row([`import of ${ITEMS} items: items/s`, oldImport.itemsPerS, newImport.itemsPerS, ratio(newImport.itemsPerS, oldImport.itemsPerS), staticImport.itemsPerS, ratio(staticImport.itemsPerS, oldImport.itemsPerS)]),
    row(['import: event loop delay max (ms)', oldImport.stall.maxMs, newImport.stall.maxMs, goal(newImport.stall.maxMs), staticImport.stall.maxMs, goal(staticImport.stall.maxMs)]),
    row(['import: event loop delay p99 (ms)', oldImport.stall.p99Ms, newImport.stall.p99Ms, '', staticImport.stall.p99Ms, '']),
    row(['import: event loop delay mean (ms)', oldImport.stall.meanMs, newImport.stall.meanMs, '', staticImport.stall.meanMs, '']),
    row([`import: longest write of ${IMPORT_SLICE} items (index.upsert, ms)`, oldImport.longestWriteMs, newImport.longestWriteMs, '', staticImport.longestWriteMs, '']),
    '',
    row(['floor', 'delay max (ms)', 'p99 (ms)', 'mean (ms)']),
    row(['---', '---', '---', '---']),
    row([`import of ${ITEMS} items without embeddings (${writesOnly.itemsPerS} items/s, longest write ${writesOnly.longestWriteMs} ms)`, writesOnly.stall.maxMs, writesOnly.stall.p99Ms, writesOnly.stall.meanMs]),
    row(['idle event loop, 5 s', idle.stall.maxMs, idle.stall.p99Ms, idle.stall.meanMs]),
    '',
    `The pool sent the ${texts.length * 2} texts of (a) in ${batches} batches.`
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  process.stdout.write(`${JSON.stringify({ bench: 'embed', items: ITEMS, texts: TEXTS, threads: THREADS, callers: CALLERS, inThread: { ...oldRate, import: oldImport }, pool: { ...newRate, import: newImport, batches }, static: { ...staticRate, import: staticImport }, writesOnly, idle: idle.stall })}\n`)
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 1
  })
  .finally(cleanup)
