// `pnpm bench engine`: the embedded engine's query path against the raw better-sqlite3 FTS5 queries it
// reduces to, CPU µs per request, at several catalog sizes in one run (issue 16, item 3), and the cold
// start to the first answer of each kind at 50k (item 5).
//
//   BENCH_SIZES=10000,50000,200000   catalog sizes (default); each index is built once and kept in
//   BENCH_DIR (default: $TMPDIR/chatsearch-engine-bench), keyed by size
//   BENCH_REQUESTS=200               measured requests per kind (after 20 of warm-up)
//
// Every measurement runs in a child process of its own (one per size, one per cold start), so one
// size's memory or caches never help another's. Only files under BENCH_DIR are touched.
import { fork } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CpuChildMessage, KindResult } from './engine-cpu-child.js'
import { builtMark } from './workload.js'

const SIZES = (process.env.BENCH_SIZES ?? '10000,50000,200000').split(',').map(Number)
const DIR = process.env.BENCH_DIR ?? join(tmpdir(), 'chatsearch-engine-bench')
const COLD_SIZE = 50_000
const child = fileURLToPath(new URL('./engine-cpu-child.ts', import.meta.url))

let running: ReturnType<typeof fork> | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    running?.kill('SIGKILL')
    process.exit(130)
  })
}

/** Runs the child with `args` and returns the messages it sent. */
async function runChild (args: string[]): Promise<CpuChildMessage[]> {
  return await new Promise((resolve, reject) => {
    const messages: CpuChildMessage[] = []
    running = fork(child, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    running.on('message', (m) => messages.push(m as CpuChildMessage))
    running.on('exit', (code) => {
      running = undefined
      if (code === 0) resolve(messages)
      else reject(new Error(`engine-cpu-child ${args.join(' ')} exited with ${code}`))
    })
  })
}

const pad = (s: string | number, n: number) => String(s).padStart(n)
mkdirSync(DIR, { recursive: true })
const results: Record<string, KindResult[]> = {}
for (const size of SIZES) {
  const indexDir = join(DIR, `index-${size}`)
  const ready = join(indexDir, 'ready')
  if (!existsSync(ready) || readFileSync(ready, 'utf8') !== builtMark(size)) {
    rmSync(indexDir, { recursive: true, force: true })
    await runChild(['build', indexDir, String(size)])
  }
  const messages = await runChild(['measure', indexDir, String(size)])
  results[size] = messages.flatMap((m) => m.type === 'measured' ? [m.result] : [])
}

process.stdout.write('\nCPU µs per request: service (EmbeddedIndex.search, in-process) vs raw better-sqlite3 FTS5\n')
process.stdout.write(`${'size'.padStart(7)} ${'kind'.padEnd(20)} ${pad('service', 9)} ${pad('raw', 9)} ${pad('ratio', 6)} ${pad('p50 ms', 7)} ${pad('raw p50', 7)} ${pad('hits', 7)}\n`)
for (const size of SIZES) {
  for (const r of results[size]!) {
    process.stdout.write(`${pad(size, 7)} ${r.kind.padEnd(20)} ${pad(r.serviceCpuUs.toFixed(0), 9)} ${pad(r.rawCpuUs.toFixed(0), 9)} ${pad(r.ratio.toFixed(2), 6)} ${pad(r.p50Ms.toFixed(2), 7)} ${pad(r.rawP50Ms.toFixed(2), 7)} ${pad(r.meanHits.toFixed(0), 7)}\n`)
  }
}
process.stdout.write('keyword and typo compare like with like (matching strategy last on both sides: the same MATCH of each level,\n' +
  'bm25 weights, LIMIT and total; the service adds its typo tiers); raw facets are a GROUP BY over the matches, the raw filter is SQL over the fields table and raw hybrid is\n' +
  'sqlite-vec\'s exact KNN, so below 1 the faceted, filtered and hybrid kinds show what the engine\'s facet tables,\n' +
  'filter index and vector codes save, not an overhead.\n')
const keywordP50 = (size: number) => results[size]?.find((r) => r.kind === 'keyword')?.p50Ms
const growth = keywordP50(200_000) !== undefined && keywordP50(50_000) !== undefined ? keywordP50(200_000)! / keywordP50(50_000)! : null
if (growth !== null) process.stdout.write(`\n200k keyword p50 / 50k keyword p50: ${growth.toFixed(2)} (goal ≤ 2.5)\n`)

const cold: Record<string, { openMs: number, firstMs: number }> = {}
if (existsSync(join(DIR, `index-${COLD_SIZE}`, 'ready'))) {
  process.stdout.write(`\nCold start at ${COLD_SIZE / 1000}k (fresh process; open + first request of the kind; goal ≤ 1000 ms)\n`)
  for (const kind of ['keyword', 'kwFilterFacets', 'hybrid']) {
    const messages = await runChild(['cold', join(DIR, `index-${COLD_SIZE}`), String(COLD_SIZE), kind])
    const m = messages.find((x) => x.type === 'cold')
    if (m?.type !== 'cold') throw new Error('cold start: no report')
    cold[kind] = { openMs: m.openMs, firstMs: m.firstMs }
    process.stdout.write(`${kind.padEnd(20)} open ${m.openMs.toFixed(0)} ms, first answer ${m.firstMs.toFixed(0)} ms, total ${(m.openMs + m.firstMs).toFixed(0)} ms\n`)
  }
}

const round = (x: number) => Math.round(x * 100) / 100
process.stdout.write(`${JSON.stringify({
  bench: 'engine',
  sizes: Object.fromEntries(SIZES.map((s) => [s, Object.fromEntries(results[s]!.map((r) => [r.kind, { serviceCpuUs: round(r.serviceCpuUs), rawCpuUs: round(r.rawCpuUs), ratio: round(r.ratio), p50Ms: round(r.p50Ms), rawP50Ms: round(r.rawP50Ms) }]))])),
  keywordGrowth200kOver50k: growth === null ? null : round(growth),
  coldStart50k: cold
})}\n`)
