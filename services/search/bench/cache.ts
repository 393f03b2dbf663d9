// `pnpm bench cache`: the search response cache under load. One run, three servers in turn on the
// same generated catalog (BENCH_CACHE_ITEMS products, 20,000 by default): no cache, the in-process
// cache, and the cache in a real redis-server started on a free loopback port (left out, and said
// so, when redis-server is not installed). The same keyword + filter + 5 facet searches (200
// queries and 6 filters in rotation: 600 distinct requests) are sent over and over with autocannon:
// after the warm-up a cached server answers nearly all of them from the cache (the hit ratio counts
// the whole run, warm-up included). Bounded: each run lasts BENCH_WARMUP_S + BENCH_DURATION_S (2 + 8 s); the whole run stops
// after BENCH_DEADLINE_S (300 s). Progress on stderr, the table and one line of JSON on stdout.
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startRedis, testDatabase } from '@chatsearch/testkit'
import type { ServerRequest } from './server.js'
import { readLoop, serverReady } from './server-child.js'
import { load, type LoadResult } from '@chatsearch/testkit/load'
import { FACETS, FILTERS, LIMIT, QUERY_COUNT, keywordQueries } from './workload.js'

const ITEMS = Number(process.env.BENCH_CACHE_ITEMS ?? 20_000)
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8)
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2)
const CONNECTIONS = 50
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 300) * 1000

const began = performance.now()
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const undo: Array<() => unknown> = []
const children = new Set<ChildProcess>()
async function cleanup () {
  for (const child of children) child.kill('SIGKILL')
  for (const fn of undo.reverse()) await Promise.resolve(fn()).catch(() => {})
}
const deadline = setTimeout(() => {
  log(`deadline of ${DEADLINE_MS / 1000} s reached: stopping`)
  cleanup().finally(() => process.exit(1))
}, DEADLINE_MS).unref()
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { cleanup().finally(() => process.exit(130)) })

interface Row { name: string, result: LoadResult, hitRatio: number | undefined, cpuS: number | undefined }

/** One server process (server.ts) with the given cache settings, measured, then stopped. */
async function measure (name: string, env: Record<string, string>, databaseUrl: string, dataDir: string): Promise<Row> {
  log(`${name}: starting the search app and importing ${ITEMS} items`)
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: dataDir, BENCH_ITEMS: String(ITEMS), ...env },
    stdio: ['ignore', 2, 2, 'ipc']
  })
  children.add(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => { children.delete(child); resolve() }))
  try {
    const ready = await serverReady(child, 180_000)
    const queries = keywordQueries(QUERY_COUNT)
    let i = 0
    log(`${name}: ${CONNECTIONS} connections, ${WARMUP_S} + ${DURATION_S} s; load average ${loadavg()[0]!.toFixed(2)}`)
    child.send({ type: 'loop-reset' } satisfies ServerRequest)
    const result = await load({
      url: `http://127.0.0.1:${ready.searchPort}`,
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      headers: { authorization: `Bearer ${ready.key}` },
      next: () => {
        const n = i++
        return { path: '/search', method: 'POST', body: JSON.stringify({ search_term: queries[n % QUERY_COUNT], filters: FILTERS[n % FILTERS.length], facets: FACETS, limit: LIMIT }) }
      }
    })
    const loop = await readLoop(child)
    const lookups = loop === undefined ? 0 : loop.cache.hits + loop.cache.misses
    const row = { name, result, hitRatio: lookups === 0 ? undefined : loop!.cache.hits / lookups, cpuS: loop === undefined ? undefined : loop.cpuMs / 1000 }
    log(`${name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, non-2xx ${result.non2xx}, errors ${result.errors}` +
      (row.hitRatio === undefined ? '' : `, cache hits ${(row.hitRatio * 100).toFixed(1)} %`))
    return row
  } finally {
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
}

const fmt = (v: number) => Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1)

function table (rows: Row[]): string {
  const base = rows[0]!.result.rps
  const lines = rows.map((r) => [r.name, Math.round(r.result.rps).toLocaleString('en-US'), fmt(r.result.p50), fmt(r.result.p99),
    `${(r.result.rps / base).toFixed(2)}x`, r.hitRatio === undefined ? '-' : `${(r.hitRatio * 100).toFixed(1)} %`, String(r.result.non2xx + r.result.errors)])
  const header = ['POST /search, kw + filter + 5 facets', 'req/s', 'p50 ms', 'p99 ms', 'vs uncached', 'cache hits', 'failed']
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const format = (cells: string[]) => cells.map((c, i) => i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ')
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')
}

async function main () {
  log(`${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; ${ITEMS} items, ${QUERY_COUNT} queries × ${FILTERS.length} filters repeated`)
  const root = await mkdtemp(join(tmpdir(), 'chatsearch-cache-bench-'))
  undo.push(() => rm(root, { recursive: true, force: true }))
  log('starting PostgreSQL')
  const databaseUrl = await testDatabase({ teardown: (fn) => { undo.push(fn) } })
  let redisUrl: string | undefined
  try {
    redisUrl = (await startRedis({ teardown: (fn) => { undo.push(fn) } })).url
  } catch (err) {
    log(`no Redis row: ${(err as Error).message}`)
  }
  const rows: Row[] = []
  rows.push(await measure('uncached (SEARCH_CACHE_TTL_S=0)', { BENCH_SEARCH_CACHE_TTL_S: '0' }, databaseUrl, join(root, 'uncached')))
  rows.push(await measure('cached in-process (no REDIS_URL)', { BENCH_SEARCH_CACHE_TTL_S: '60' }, databaseUrl, join(root, 'memory')))
  if (redisUrl !== undefined) rows.push(await measure('cached in Redis (REDIS_URL)', { BENCH_SEARCH_CACHE_TTL_S: '60', BENCH_REDIS_URL: redisUrl }, databaseUrl, join(root, 'redis')))
  process.stdout.write(`\n${table(rows)}\n\n`)
  process.stdout.write(JSON.stringify({
    bench: 'cache',
    items: ITEMS,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    rows: rows.map((r) => ({ name: r.name, rps: Math.round(r.result.rps), p50: r.result.p50, p99: r.result.p99, hitRatio: r.hitRatio, failed: r.result.non2xx + r.result.errors, serverCpuS: r.cpuS }))
  }) + '\n')
}

try {
  await main()
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  process.exitCode = 1
} finally {
  clearTimeout(deadline)
  await cleanup()
}
