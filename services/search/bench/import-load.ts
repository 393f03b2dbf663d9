// `pnpm bench import`: does search keep serving while a catalog is imported? The real search service
// (server.ts: its own config, reader threads included, a throw-away PostgreSQL) is seeded with
// BENCH_BASE_ITEMS products (50,000), then loaded with a mix of keyword and keyword + filter + 5 facet
// searches: first idle, then WHILE BENCH_IMPORT_ITEMS (50,000) new products are posted to
// POST /documents in batches of 1,000 (as a client or the CLI sends them; below the task threshold,
// so each answers 200 once indexed), one batch after the other. Meanwhile GET /healthz is probed every
// 20 ms. The service reports its event loop's delay, its main thread's GC pauses, and what each
// stall of 20 ms or more was made of (stalls.ts: ran, waited for a core, blocked); an idle Node
// process beside it (idle-loop.ts) reports its own loop delay, the part the machine adds when every
// core is busy. Then 10 more batches are posted with nothing else running, for the main thread's
// CPU per batch. Keyword-only (EMBEDDINGS=false) unless BENCH_EMBED=1, which embeds the imported items with
// the service's default embedder (the seed stays keyword-only). Bounded by BENCH_DEADLINE_S (600 s);
// cleans up on Ctrl-C. Progress on stderr, the table and one line of JSON on stdout.
import { fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { testDatabase } from '@chatsearch/testkit'
import { productAt } from '../catalog/generate.js'
import type { ServerRequest } from './server.js'
import type { Stalls } from './stalls.js'
import { readLoop, serverReady, type ServerLoop } from './server-child.js'
import { load, type LoadResult } from '@chatsearch/testkit/load'
import { BATCH, FACETS, FILTERS, LIMIT, QUERY_COUNT, SEED, keywordQueries, percentile, round } from './workload.js'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

const BASE_ITEMS = Number(process.env.BENCH_BASE_ITEMS ?? 50_000)
const IMPORT_ITEMS = Number(process.env.BENCH_IMPORT_ITEMS ?? 50_000)
const EMBED = process.env.BENCH_EMBED === '1'
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
const HEALTH_EVERY_MS = 20
/** With BENCH_EMBED=1 a batch takes about a minute to embed: none then. */
const ALONE_BATCHES = EMBED ? 0 : 10
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000
const goals = { searchRatio: 0.5, healthzMs: 50, loopMaxMs: 20 }

const began = performance.now()
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const { defer, cleanup } = boundedRun({ log, deadlineMs: DEADLINE_MS })

/** GET /healthz every HEALTH_EVERY_MS until `signal` aborts; the latencies in ms, sorted. */
async function probeHealth (url: string, signal: AbortSignal): Promise<{ latencies: number[], failed: number }> {
  const latencies: number[] = []
  let failed = 0
  while (!signal.aborted) {
    const at = performance.now()
    try {
      const res = await fetch(`${url}/healthz`)
      await res.arrayBuffer()
      if (res.ok) latencies.push(performance.now() - at)
      else failed++
    } catch {
      failed++
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEALTH_EVERY_MS - (performance.now() - at))))
  }
  return { latencies: latencies.sort((a, b) => a - b), failed }
}

/** Posts the new products in batches, one after the other; items/s and the batches that failed. */
async function importCatalog (url: string, headers: Record<string, string>, first = BASE_ITEMS, count = IMPORT_ITEMS): Promise<{ seconds: number, items: number, failed: string[] }> {
  const started = performance.now()
  const failed: string[] = []
  let items = 0
  for (let from = first; from < first + count; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, first + count - from) }, (_, i) => productAt(from + i, SEED))
    const res = await fetch(`${url}/documents`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    const body = await res.text()
    if (res.status === 200) items += batch.length
    else failed.push(`${res.status} ${body.slice(0, 200)}`)
    if ((from - first + batch.length) % 10_000 === 0) log(`imported ${from - first + batch.length} items`)
  }
  return { seconds: (performance.now() - started) / 1000, items, failed }
}

interface Phase { search: LoadResult, health: { latencies: number[], failed: number }, loop: ServerLoop | undefined, idleLoop: ServerLoop | undefined }

async function main () {
  const root = await mkdtemp(join(tmpdir(), 'chatsearch-import-bench-'))
  defer(() => rm(root, { recursive: true, force: true }))
  log('starting PostgreSQL')
  const databaseUrl = await testDatabase({ teardown: defer })
  log(`starting the search service and seeding ${BASE_ITEMS} items (keyword-only)`)
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: join(root, 'data'), BENCH_ITEMS: String(BASE_ITEMS), ...(EMBED ? { BENCH_EMBEDDINGS: '1' } : {}) },
    stdio: ['ignore', 2, 2, 'ipc']
  })
  defer(() => child.kill('SIGKILL'))
  const ready = await serverReady(child, 300_000)
  // The machine's own part of a loop's delay, measured in the same phases: see idle-loop.ts.
  const idleChild = fork(fileURLToPath(new URL('./idle-loop.ts', import.meta.url)), [], { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 2, 2, 'ipc'] })
  defer(() => idleChild.kill('SIGKILL'))
  log(`seeded in ${ready.importSeconds.toFixed(1)} s; readers ${String(ready.config.readers)}${ready.readersFailed === undefined ? '' : ` (failed: ${ready.readersFailed})`}`)
  const url = `http://127.0.0.1:${ready.searchPort}`
  const headers = { authorization: `Bearer ${ready.key}` }
  const queries = keywordQueries(QUERY_COUNT)
  let n = 0
  // Half keyword only, half keyword + filter + 5 facets, in turn.
  const next = () => {
    const i = n++
    const body = i % 2 === 0
      ? { search_term: queries[i % QUERY_COUNT] }
      : { search_term: queries[i % QUERY_COUNT], filters: FILTERS[i % FILTERS.length], facets: FACETS, limit: LIMIT }
    return { path: '/search', method: 'POST' as const, body: JSON.stringify(body) }
  }

  const phase = async (name: string, during?: () => Promise<void>): Promise<Phase> => {
    log(`${name}: ${CONNECTIONS} connections; load average ${loadavg()[0]!.toFixed(2)}`)
    for (const c of [child, idleChild]) c.send({ type: 'loop-reset' } satisfies ServerRequest)
    const stopHealth = new AbortController()
    const health = probeHealth(url, stopHealth.signal)
    const stop = new AbortController()
    const work = during === undefined ? undefined : during().finally(() => stop.abort())
    const search = await load({
      url,
      connections: CONNECTIONS,
      headers,
      next,
      ...(work === undefined ? { durationS: DURATION_S, warmupS: WARMUP_S } : { durationS: 24 * 3600, warmupS: 0, signal: stop.signal })
    })
    await work
    stopHealth.abort()
    const [loop, idleLoop] = await Promise.all([readLoop(child), readLoop(idleChild)])
    const h = await health
    log(`${name}: ${search.rps.toFixed(0)} req/s, p50 ${search.p50.toFixed(1)} ms, non-2xx ${search.non2xx}; /healthz p50 ${percentile(h.latencies, 50).toFixed(1)} ms, max ${(h.latencies.at(-1) ?? Number.NaN).toFixed(0)} ms; ` +
      `loop max ${loop?.max.toFixed(0) ?? '?'} ms (GC pause max ${loop?.gcMaxMs.toFixed(0) ?? '?'} ms), idle process's loop max ${idleLoop?.max.toFixed(0) ?? '?'} ms`)
    return { search, health: h, loop, idleLoop }
  }

  const idle = await phase('idle')
  let imported: Awaited<ReturnType<typeof importCatalog>> | undefined
  const importing = await phase(`importing ${IMPORT_ITEMS} items`, async () => { imported = await importCatalog(url, headers) })
  // What one batch costs the service's main thread (parsing, checks, hand-over to the writer…),
  // measured with nothing else running: ALONE_BATCHES more batches, no search, no probe.
  child.send({ type: 'loop-reset' } satisfies ServerRequest)
  const alone = await importCatalog(url, headers, BASE_ITEMS + IMPORT_ITEMS, ALONE_BATCHES * BATCH)
  const aloneLoop = ALONE_BATCHES === 0 ? undefined : await readLoop(child)
  const perBatch = (ms: number | undefined) => ms === undefined ? Number.NaN : ms / (alone.items / BATCH)
  child.kill('SIGTERM')
  idleChild.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  const result = imported!

  const ratio = importing.search.rps / idle.search.rps
  const healthP = (p: Phase, q: number) => percentile(p.health.latencies, q)
  const row = (name: string, p: Phase) => [name, p.search.rps.toFixed(0), p.search.p50.toFixed(1), p.search.p99.toFixed(1), String(p.search.non2xx + p.search.errors),
    healthP(p, 50).toFixed(1), healthP(p, 99).toFixed(1), (p.health.latencies.at(-1) ?? Number.NaN).toFixed(1), p.loop?.max.toFixed(0) ?? '?',
    p.loop?.gcMaxMs.toFixed(0) ?? '?', p.loop?.gcTotalMs.toFixed(0) ?? '?', p.idleLoop?.max.toFixed(0) ?? '?']
  const header = ['phase', 'search req/s', 'p50 ms', 'p99 ms', 'failed', '/healthz p50', 'p99', 'max', 'loop max ms', 'GC max', 'GC total', 'idle process loop max']
  const lines = [row('idle', idle), row('during import', importing)]
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const format = (cells: string[]) => cells.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ')
  const mode = EMBED ? 'imported items embedded with the default embedder (BENCH_EMBED=1)' : 'keyword-only: EMBEDDINGS=false (BENCH_EMBED=1 embeds the imported items)'
  const stallParts = 'ran on a core / waited for one / blocked, from the main thread\'s schedstat'
  const stallLine = (s: Stalls | undefined) => s === undefined
    ? '?'
    : `${s.count}, ${s.total.ms.toFixed(0)} ms in all (${s.total.runMs.toFixed(0)} / ${s.total.waitMs.toFixed(0)} / ${s.total.blockedMs.toFixed(0)}), ` +
      `longest ${s.worst.ms.toFixed(0)} ms (${s.worst.runMs.toFixed(0)} / ${s.worst.waitMs.toFixed(0)} / ${s.worst.blockedMs.toFixed(0)})`
  const out = [
    `Search during a catalog import — ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ${String(ready.config.readers)} reader threads`,
    `${BASE_ITEMS} items seeded, then ${IMPORT_ITEMS} posted to POST /documents in batches of ${BATCH}; ${mode}`,
    `search: ${CONNECTIONS} connections, keyword and keyword + filter + 5 facets in turn; /healthz probed every ${HEALTH_EVERY_MS} ms`,
    '',
    format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format),
    '',
    `import: ${result.items} items in ${result.seconds.toFixed(1)} s = ${(result.items / result.seconds).toFixed(0)} items/s${result.failed.length > 0 ? `; ${result.failed.length} batches FAILED: ${result.failed[0]}` : ''}`,
    `search during import vs idle: ${ratio.toFixed(2)}× req/s (goal >= ${goals.searchRatio}), p50 ${(importing.search.p50 / idle.search.p50).toFixed(1)}× idle`,
    `/healthz during import: p50 ${healthP(importing, 50).toFixed(1)} ms, p99 ${healthP(importing, 99).toFixed(1)} ms, max ${(importing.health.latencies.at(-1) ?? Number.NaN).toFixed(1)} ms (goal p99 <= ${goals.healthzMs} ms)`,
    `service event-loop delay max during import: ${importing.loop?.max.toFixed(0) ?? '?'} ms (goal <= ${goals.loopMaxMs} ms); its longest GC pause ${importing.loop?.gcMaxMs.toFixed(0) ?? '?'} ms (${importing.loop?.gcMaxKind ?? '?'}); ` +
      `an idle Node process's loop max meanwhile ${importing.idleLoop?.max.toFixed(0) ?? '?'} ms (waiting for a core: every core is busy)`,
    ALONE_BATCHES === 0
      ? 'one batch alone: not measured with BENCH_EMBED=1'
      : `one ${BATCH}-item batch alone (${alone.items / BATCH} batches, nothing else running): service main thread ${perBatch(aloneLoop?.mainThreadCpuMs).toFixed(1)} ms CPU, whole process ${perBatch(aloneLoop?.cpuMs).toFixed(1)} ms, ` +
      `${(alone.seconds * 1000 / (alone.items / BATCH)).toFixed(0)} ms per request; loop max ${aloneLoop?.max.toFixed(0) ?? '?'} ms`,
    `stalls of 20 ms or more during import (${stallParts}): service ${stallLine(importing.loop?.stalls)}; idle process ${stallLine(importing.idleLoop?.stalls)}`
  ]
  process.stdout.write(out.join('\n') + '\n')
  const phaseJson = (p: Phase) => ({
    rps: round(p.search.rps, 1),
    p50: round(p.search.p50),
    p99: round(p.search.p99),
    failed: p.search.non2xx + p.search.errors,
    healthz: { p50: round(healthP(p, 50)), p99: round(healthP(p, 99)), max: round(p.health.latencies.at(-1) ?? Number.NaN), failed: p.health.failed },
    loopMaxMs: round(p.loop?.max ?? Number.NaN),
    gcMaxMs: round(p.loop?.gcMaxMs ?? Number.NaN),
    gcMaxKind: p.loop?.gcMaxKind,
    gcTotalMs: round(p.loop?.gcTotalMs ?? Number.NaN),
    idleProcessLoopMaxMs: round(p.idleLoop?.max ?? Number.NaN),
    stalls: p.loop?.stalls,
    idleProcessStalls: p.idleLoop?.stalls
  })
  process.stdout.write(JSON.stringify({
    bench: 'import',
    baseItems: BASE_ITEMS,
    importItems: IMPORT_ITEMS,
    embed: EMBED,
    readers: ready.config.readers,
    idle: phaseJson(idle),
    importing: phaseJson(importing),
    import: { items: result.items, seconds: round(result.seconds, 1), itemsPerSecond: round(result.items / result.seconds, 0), failedBatches: result.failed.length },
    searchRatio: round(ratio, 3),
    batchAlone: { batches: alone.items / BATCH, mainThreadCpuMs: round(perBatch(aloneLoop?.mainThreadCpuMs)), processCpuMs: round(perBatch(aloneLoop?.cpuMs)), requestMs: round(alone.seconds * 1000 / (alone.items / BATCH)), loopMaxMs: round(aloneLoop?.max ?? Number.NaN) }
  }) + '\n')
}

main().then(() => cleanup(), async (err: unknown) => {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  await cleanup()
  process.exitCode = 1
})
