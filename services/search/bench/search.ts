// `pnpm bench search`: the search service's performance on synthetic catalogs of 50,000 and 200,000
// products (catalog/generate.ts, seed 42), with the embedded engine (SQLite FTS5 + sqlite-vec):
// ingestion, query latency per kind of query, index size and memory, then HTTP throughput of the real
// app against a bare Fastify route. The engine work runs in child processes (engine-child.ts) that
// are killed when a case overruns its time limit; the HTTP servers run in another (server.ts).
// Progress goes to stderr; the tables, the targets and, last, one line of JSON go to stdout.
import { execFileSync, fork, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { testDatabase } from '@chatsearch/shell/testing'
import type { CaseEnd, ChildMessage, IngestReport, QueryReadyReport } from './engine-child.js'
import type { ServerRequest } from './server.js'
import { readLoop, serverReady, type ServerLoop } from './server-child.js'
import { load, type LoadResult } from './load.js'
import { CASES, FACETS, FILTERS, LIMIT, QUERY_COUNT, SUGGEST_LIMIT, keywordQueries, percentile, prefixes, round, type CaseName } from './workload.js'

const SIZES = (process.env.BENCH_SIZES ?? '50000,200000').split(',').map(Number)
const EMBED_ITEMS = Number(process.env.BENCH_EMBED_ITEMS ?? 1000)
/** A case whose queries are still running this long after it started is killed (with its process). */
const CASE_TIMEOUT_S = Number(process.env.BENCH_CASE_TIMEOUT_S ?? 75)
const CASE_BUDGET_S = Number(process.env.BENCH_CASE_BUDGET_S ?? 15)
const HTTP_DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const HTTP_WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2)
const HTTP_CONNECTIONS = 50
const HTTP_ITEMS = Number(process.env.BENCH_HTTP_ITEMS ?? 50_000)
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 900) * 1000
/** BENCH_HTTP=0 leaves out the HTTP part (for quick runs of the engine part alone). */
const RUN_HTTP = process.env.BENCH_HTTP !== '0'

const targets = {
  kwFilterFacetsP50: 5,
  kwFilterFacetsP95: 15,
  hybridP50: 40,
  browseFilterFacetsP95: 30,
  autocompleteP50: 2,
  httpSearchMinRatio: 0.25,
  ingestMinItemsPerSecond: 5000
}

const began = performance.now()
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`
const log = (line: string) => process.stderr.write(`[bench ${elapsed()}] ${line}\n`)
const load1 = () => loadavg()[0]!.toFixed(2)

// ---- what was measured: the code may be edited while the benchmark runs ----
const packageDir = fileURLToPath(new URL('..', import.meta.url))
/** A hash of every file under src/ and catalog/: compared at the end to catch edits made during the run. */
function codeFingerprint (): string {
  const hash = createHash('sha256')
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) hash.update(path).update(readFileSync(path))
    }
  }
  for (const dir of ['src', 'catalog']) walk(join(packageDir, dir))
  return hash.digest('hex').slice(0, 12)
}
function gitState (): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: packageDir, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: packageDir, encoding: 'utf8' }).trim() !== ''
    return `${head}${dirty ? ' + uncommitted changes in src/' : ''}`
  } catch {
    return 'unknown'
  }
}

// ---- clean-up: whatever was started is stopped, on success, failure, Ctrl-C or deadline ----
const undo: Array<() => Promise<unknown>> = []
const defer = (fn: () => unknown) => { undo.push(async () => await fn()) }
let cleaning: Promise<void> | undefined
function cleanup (): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of undo.reverse()) await fn().catch((err: unknown) => log(`clean-up step failed: ${String(err)}`))
  })()
  return cleaning
}
let aborting = false
function abort (reason: string, code: number) {
  if (aborting) return
  aborting = true
  log(reason)
  cleanup().then(() => process.exit(code), () => process.exit(code))
}
process.on('SIGINT', () => abort('interrupted, cleaning up', 130))
process.on('SIGTERM', () => abort('terminated, cleaning up', 143))
setTimeout(() => abort(`still running after ${DEADLINE_MS / 1000} s, giving up`, 1), DEADLINE_MS).unref()

// ---- child processes ----
const children = new Set<ChildProcess>()
defer(async () => { for (const child of children) await stopChild(child) })

async function stopChild (child: ChildProcess, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  // A process inside a long SQLite call only sees its signal handler afterwards.
  const timer = setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') }, graceMs)
  await exited
  clearTimeout(timer)
}

function forkChild (script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, ...env },
    // The child's stdout joins our stderr: stdout is kept for the report.
    stdio: ['ignore', 2, 2, 'ipc']
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}

const exitOf = (child: ChildProcess) => new Promise<{ code: number | null, signal: NodeJS.Signals | null }>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode })
  else child.once('exit', (code, signal) => resolve({ code, signal }))
})

/** Runs an engine child to its end and returns the message of the type wanted. */
async function engineStep<T extends ChildMessage['type']> (mode: string, args: string[], wanted: T): Promise<Extract<ChildMessage, { type: T }>> {
  const child = forkChild('./engine-child.ts', [mode, ...args])
  let got: Extract<ChildMessage, { type: T }> | undefined
  child.on('message', (m: ChildMessage) => { if (m.type === wanted) got = m as Extract<ChildMessage, { type: T }> })
  const { code, signal } = await exitOf(child)
  if (got === undefined) throw new Error(`engine child ${mode} ${args.join(' ')} ended (${signal ?? code}) without a result`)
  return got
}

// ---- query latency, one process per run of cases; a case past its time limit is killed ----
interface CaseResult {
  runs: number
  warmupRuns: number
  p50: number
  p95: number
  mean: number
  meanHits: number | null
  /** Killed after CASE_TIMEOUT_S: the figures, if any, are of the queries that finished. */
  timedOut: boolean
  /** The slowest single query seen (warm-up included), a floor for a case that timed out. */
  slowestMs: number
}

interface SizeResult {
  size: number
  ingest: IngestReport
  ready: QueryReadyReport | undefined
  cases: Partial<Record<CaseName, CaseResult>>
  rssAfterLoad: number
  maxRssQuery: number
}

function summarise (measured: number[], warm: number[], timedOut: boolean, end: CaseEnd | undefined): CaseResult {
  const sorted = [...measured].sort((a, b) => a - b)
  return {
    runs: measured.length,
    warmupRuns: warm.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.length === 0 ? Number.NaN : sorted.reduce((a, b) => a + b, 0) / sorted.length,
    meanHits: end?.meanHits ?? null,
    timedOut,
    slowestMs: Math.max(0, ...measured, ...warm)
  }
}

async function measureQueries (root: string, size: number): Promise<{ ready: QueryReadyReport | undefined, cases: Partial<Record<CaseName, CaseResult>>, maxRss: number }> {
  const cases: Partial<Record<CaseName, CaseResult>> = {}
  let ready: QueryReadyReport | undefined
  let maxRss = 0
  let remaining: CaseName[] = [...CASES]
  while (remaining.length > 0) {
    const child = forkChild('./engine-child.ts', ['query', root, String(size), remaining.join(',')], {
      BENCH_CASE_BUDGET_S: String(CASE_BUDGET_S)
    })
    let current: CaseName | undefined
    let measured: number[] = []
    let warm: number[] = []
    let timer: NodeJS.Timeout | undefined
    let killed = false
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') {
        ready ??= m.report
        log(`${size}: index opened in ${m.report.openMs.toFixed(0)} ms, first query (vocabulary) ${m.report.firstQueryMs.toFixed(0)} ms`)
      } else if (m.type === 'case-start') {
        current = m.name
        measured = []
        warm = []
        log(`${size}: ${m.name}…`)
        timer = setTimeout(() => {
          killed = true
          log(`${size}: ${m.name} still running after ${CASE_TIMEOUT_S} s: killing it (${measured.length} measured, ${warm.length} warm-up queries done)`)
          child.kill('SIGKILL')
        }, CASE_TIMEOUT_S * 1000)
      } else if (m.type === 'run') {
        (m.warmup ? warm : measured).push(m.ms)
      } else if (m.type === 'case-end') {
        clearTimeout(timer)
        cases[m.end.name] = summarise(measured, warm, false, m.end)
        maxRss = Math.max(maxRss, m.end.maxRss)
        remaining = remaining.filter((c) => c !== m.end.name)
        current = undefined
      }
    })
    const { code, signal } = await exitOf(child)
    clearTimeout(timer)
    if (current !== undefined) {
      if (!killed) log(`${size}: the query process ended (${signal ?? code}) during ${current}`)
      cases[current] = summarise(measured, warm, true, undefined)
      remaining = remaining.filter((c) => c !== current)
    } else if (remaining.length > 0) {
      throw new Error(`the query process ended (${signal ?? code}) before ${remaining.join(', ')}`)
    }
  }
  return { ready, cases, maxRss }
}

// ---- HTTP ----
interface HttpResult { name: string, result: LoadResult, ratio: number, loop: ServerLoop | undefined }

async function measureHttp (root: string): Promise<{ rows: HttpResult[], importSeconds: number, config: Record<string, unknown>, readersFailed: string | undefined }> {
  log('HTTP: starting PostgreSQL')
  const databaseUrl = await testDatabase({ teardown: defer })
  const dataDir = join(root, 'http')
  log(`HTTP: starting the search app and importing ${HTTP_ITEMS} items (keyword-only)`)
  const child = forkChild('./server.ts', [], { BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: dataDir, BENCH_ITEMS: String(HTTP_ITEMS) })
  try {
    const ready = await serverReady(child, 240_000)
    log(`HTTP: imported in ${ready.importSeconds.toFixed(1)} s; load ${load1()}`)
    const searchUrl = `http://127.0.0.1:${ready.searchPort}`
    const headers = { authorization: `Bearer ${ready.key}` }
    const queries = keywordQueries(QUERY_COUNT)
    const terms = prefixes(QUERY_COUNT)
    let i = 0
    const ask = (m: ServerRequest) => { child.send(m) }
    const run = async (name: string, url: string, next: () => { path: string, method: 'POST', body: string }) => {
      log(`HTTP: ${name}, ${HTTP_CONNECTIONS} connections, ${HTTP_WARMUP_S} + ${HTTP_DURATION_S} s; load ${load1()}`)
      i = 0
      ask({ type: 'loop-reset' })
      const result = await load({ url, connections: HTTP_CONNECTIONS, durationS: HTTP_DURATION_S, warmupS: HTTP_WARMUP_S, headers, next })
      const loop = await readLoop(child)
      log(`HTTP: ${name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}` +
        (loop === undefined ? '' : `; server event-loop delay p99 ${loop.p99.toFixed(0)} ms, max ${loop.max.toFixed(0)} ms, CPU ${(loop.cpuMs / 1000).toFixed(1)} s`))
      return { result, loop }
    }
    const bare = await run('bare route', `http://127.0.0.1:${ready.barePort}`, () => ({ path: '/bare', method: 'POST', body: JSON.stringify({ search_term: queries[i++ % QUERY_COUNT] }) }))
    const rows: HttpResult[] = [{ name: 'bare Fastify route (POST, JSON)', result: bare.result, ratio: 1, loop: bare.loop }]
    const add = (name: string, { result, loop }: { result: LoadResult, loop: HttpResult['loop'] }) => rows.push({ name, result, ratio: result.rps / bare.result.rps, loop })
    add('POST /autocomplete', await run('autocomplete', searchUrl, () => ({ path: '/autocomplete', method: 'POST', body: JSON.stringify({ autocomplete_term: terms[i++ % QUERY_COUNT] }) })))
    add('POST /search keyword only (info)', await run('search keyword', searchUrl, () => ({ path: '/search', method: 'POST', body: JSON.stringify({ search_term: queries[i++ % QUERY_COUNT] }) })))
    // Last: a server stuck in long queries is killed afterwards rather than waited for.
    add('POST /search kw + filter + 5 facets', await run('search keyword + filter + facets', searchUrl, () => {
      const n = i++
      return { path: '/search', method: 'POST', body: JSON.stringify({ search_term: queries[n % QUERY_COUNT], filters: FILTERS[n % FILTERS.length], facets: FACETS, limit: LIMIT }) }
    }))
    return { rows, importSeconds: ready.importSeconds, config: ready.config, readersFailed: ready.readersFailed }
  } finally {
    await stopChild(child, 3000)
  }
}

// ---- report ----
const fmtMs = (v: number) => Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : v.toFixed(0)
const fmtInt = (v: number) => Math.round(v).toLocaleString('en-US')
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

function tableOf (header: string[], lines: string[][], left = new Set([0])): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const format = (cells: string[]) => cells.map((c, i) => left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ').trimEnd()
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')
}

const CASE_LABELS: Record<CaseName, string> = {
  keyword: 'keyword (2-3 words)',
  typo: 'keyword + 1 typo',
  kwFilterFacets: 'keyword + filter + 5 facets',
  browseFilterFacets: 'browse + filter + 5 facets',
  hybrid: 'hybrid 0.7 (vector precomputed)',
  autocomplete: 'autocomplete (2-4 letters)'
}

/** A latency for the table: "≥ 75 s" for a case that timed out without a single measured query. */
function latency (c: CaseResult | undefined, p: 'p50' | 'p95'): string {
  if (c === undefined) return '-'
  if (c.runs === 0) return c.timedOut ? `>=${fmtMs(Math.max(CASE_TIMEOUT_S * 1000, c.slowestMs))}` : '-'
  return fmtMs(c[p]) + (c.timedOut ? '*' : '')
}
/** The figure, or a floor of it for a case killed before any measured query finished. */
const value = (c: CaseResult | undefined, p: 'p50' | 'p95') => c === undefined ? Number.NaN : c.runs > 0 ? c[p] : c.timedOut ? Math.max(CASE_TIMEOUT_S * 1000, c.slowestMs) : Number.NaN
const floorOnly = (c: CaseResult | undefined) => c !== undefined && c.runs === 0 && c.timedOut

function ratioText (a: number, b: number, bIsFloor = false, aIsFloor = false): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0) return '-'
  if (aIsFloor && bIsFloor) return '?'
  if (aIsFloor) return `<=${(b / a).toFixed(2)}x`
  return `${bIsFloor ? '>=' : ''}${(b / a).toFixed(2)}x`
}

async function main () {
  const root = await mkdtemp(join(tmpdir(), 'chatsearch-search-bench-'))
  defer(() => rm(root, { recursive: true, force: true }))
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`
  const loadStart = load1()
  const codeStart = codeFingerprint()
  const git = gitState()
  log(`${machine}; load average ${loadStart}; sizes ${SIZES.join(', ')}; code ${git} (src+catalog ${codeStart}); temp dir ${root}`)

  log(`embedding ${EMBED_ITEMS} items with USE-lite (measured ingestion with embeddings; their vectors become the pool)`)
  const embed = (await engineStep('embed', [root, String(EMBED_ITEMS)], 'embedded')).report
  log(`embedded ${embed.items} items in ${embed.seconds.toFixed(1)} s (${embed.itemsPerSecond.toFixed(0)} items/s; model ${embed.modelMsPerItem.toFixed(2)} ms/item)`)

  const sizes: SizeResult[] = []
  for (const size of SIZES) {
    log(`${size}: ingesting keyword-only; load ${load1()}`)
    const ingest = (await engineStep('ingest', [root, String(size)], 'ingested')).report
    log(`${size}: ${ingest.itemsPerSecond.toFixed(0)} items/s keyword-only; vectors attached in ${ingest.vectorAttachSeconds.toFixed(1)} s; ${mb(ingest.withVectors.file + ingest.withVectors.wal)} on disk`)
    const q = await measureQueries(root, size)
    sizes.push({ size, ingest, ready: q.ready, cases: q.cases, rssAfterLoad: q.ready?.rssAfterLoad ?? Number.NaN, maxRssQuery: q.maxRss })
    await rm(join(root, `index-${size}`), { recursive: true, force: true })
  }

  const http = RUN_HTTP ? await measureHttp(root) : undefined
  const loadEnd = load1()
  const codeEnd = codeFingerprint()
  const codeChanged = codeEnd !== codeStart
  if (codeChanged) log('WARNING: src/ or catalog/ changed during the run: the figures mix versions of the code')

  // ---- tables ----
  const out: string[] = []
  const say = (line = '') => out.push(line)
  say('Search benchmark — embedded engine (SQLite FTS5 + sqlite-vec), synthetic catalog seed 42')
  say(`${machine}; load average ${loadStart} at start, ${loadEnd} at end (other work on the machine shows up as noise)`)
  say(`code: ${git}; src+catalog fingerprint ${codeStart}${codeChanged ? ` → ${codeEnd}: WARNING, CHANGED DURING THE RUN, the figures mix versions of the code` : ' (unchanged during the run)'}`)
  say()
  say('Ingestion')
  say(tableOf(['catalog', 'keyword-only items/s', 'wall s', 'CPU s', 'est. with embeddings (s)', 'vector attach s'], sizes.map((s) => [
    fmtInt(s.size),
    fmtInt(s.ingest.itemsPerSecond),
    s.ingest.seconds.toFixed(1),
    s.ingest.cpuSeconds.toFixed(1),
    (s.ingest.seconds + s.size * embed.modelMsPerItem / 1000).toFixed(0),
    s.ingest.vectorAttachSeconds.toFixed(1)
  ])))
  say(`  keyword-only: ingestDocuments(index, batch of ${fmtInt(1000)}, embedder undefined) over the whole catalog, settings set first (tags made facetable).`)
  say(`  with embeddings: MEASURED on the first ${fmtInt(embed.items)} items only: ${fmtInt(embed.itemsPerSecond)} items/s (model ${embed.modelMsPerItem.toFixed(2)} ms/item, load ${fmtInt(embed.modelLoadMs)} ms);`)
  say(`    the "est." column is EXTRAPOLATED: keyword-only time + items × model time per item (50k would take ~${fmtInt(50_000 * embed.modelMsPerItem / 60_000)} min of model time, too long to run here).`)
  say(`  vectors for hybrid search: NOT one per item. Each item got the vector of one of the ${fmtInt(embed.items)} embedded items of the same product type`)
  say(`    (${embed.distinctTypes} types; items whose type had none: ${sizes.map((s) => `${fmtInt(s.size)}: ${s.ingest.vectorFallbacks}`).join(', ')}), inserted into the vectors table directly.`)
  say()
  say(`Query latency, in process (ms; ${QUERY_COUNT} varied queries per case unless n says fewer: a case stops after ${CASE_BUDGET_S} s, and is killed after ${CASE_TIMEOUT_S} s)`)
  const caseRows: string[][] = []
  for (const name of CASES) {
    for (const s of sizes) {
      const c = s.cases[name]
      caseRows.push([
        `${CASE_LABELS[name]} @${s.size / 1000}k`,
        latency(c, 'p50'),
        latency(c, 'p95'),
        c === undefined ? '-' : String(c.runs) + (c.timedOut ? ' (killed)' : ''),
        c?.meanHits === null || c?.meanHits === undefined ? '-' : fmtInt(c.meanHits)
      ])
    }
  }
  say(tableOf(['case', 'p50', 'p95', 'n', 'mean hits'], caseRows))
  say(`  filters: ${FILTERS.map((f) => `"${f}"`).join(', ')} in turn; facets: ${FACETS.join(', ')}; limit ${LIMIT}; autocomplete limit ${SUGGEST_LIMIT}.`)
  say('  * = killed while running: figures of the queries that finished; >= = no measured query finished, the floor shown.')
  say()
  say('Size and memory')
  say(tableOf(['catalog', 'index keyword-only', 'index with vectors', 'RSS after load', 'max RSS (queries)', 'max RSS (ingest)'], sizes.map((s) => [
    fmtInt(s.size),
    `${mb(s.ingest.keywordOnly.file)} + ${mb(s.ingest.keywordOnly.wal)} wal`,
    `${mb(s.ingest.withVectors.file)} + ${mb(s.ingest.withVectors.wal)} wal`,
    mb(s.rssAfterLoad),
    mb(s.maxRssQuery),
    mb(s.ingest.maxRss)
  ])))
  say('  RSS after load: a fresh process that opened the index and ran one query (vocabulary read).')
  say()
  if (http === undefined) {
    say('HTTP: not measured (BENCH_HTTP=0)')
  } else {
    say(`HTTP (autocannon, ${HTTP_CONNECTIONS} connections, ${HTTP_WARMUP_S} s warm-up + ${HTTP_DURATION_S} s; search app with ${fmtInt(HTTP_ITEMS)} items imported keyword-only in ${http.importSeconds.toFixed(1)} s; servers in a child process)`)
    say(`  app config (service defaults, embeddings off): ${JSON.stringify(http.config)}`)
    if (http.readersFailed !== undefined) {
      say(`  NOTE: with the default reader threads every search failed (${http.readersFailed.split('\n')[0]}); measured with readers: 0.`)
    }
    say(tableOf(['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx', 'errors', 'timeouts', 'loop delay p99/max ms', 'server CPU s'], http.rows.map((r) => [
      r.name, fmtInt(r.result.rps), fmtMs(r.result.p50), fmtMs(r.result.p99), r.ratio.toFixed(3), String(r.result.non2xx), String(r.result.errors), String(r.result.timeouts),
      r.loop === undefined ? '-' : `${r.loop.p99.toFixed(0)}/${r.loop.max.toFixed(0)}`,
      r.loop === undefined ? '-' : (r.loop.cpuMs / 1000).toFixed(1)
    ])))
    say(`  loop delay: how long the search server's event loop was held up during the run; server CPU: its CPU time over the ${HTTP_WARMUP_S + HTTP_DURATION_S} s run.`)
  }
  say()

  // ---- targets at 50k ----
  const s50 = sizes.find((s) => s.size === 50_000)
  const httpSearch = http?.rows.at(-1)
  const checks: Array<{ name: string, figure: string, target: string, met: boolean | undefined }> = []
  const check = (name: string, figure: number, isFloor: boolean, target: string, met: (v: number) => boolean) => {
    checks.push({ name, figure: Number.isFinite(figure) ? `${isFloor ? '>=' : ''}${fmtMs(figure)}` : '-', target, met: Number.isFinite(figure) ? met(figure) : undefined })
  }
  if (s50 !== undefined) {
    const kff = s50.cases.kwFilterFacets
    check('keyword + filter + 5 facets p50 ms', value(kff, 'p50'), floorOnly(kff), `<= ${targets.kwFilterFacetsP50}`, (v) => v <= targets.kwFilterFacetsP50)
    check('keyword + filter + 5 facets p95 ms', value(kff, 'p95'), floorOnly(kff), `<= ${targets.kwFilterFacetsP95}`, (v) => v <= targets.kwFilterFacetsP95)
    check('hybrid p50 ms', value(s50.cases.hybrid, 'p50'), floorOnly(s50.cases.hybrid), `<= ${targets.hybridP50}`, (v) => v <= targets.hybridP50)
    check('browse + filter + 5 facets p95 ms', value(s50.cases.browseFilterFacets, 'p95'), floorOnly(s50.cases.browseFilterFacets), `<= ${targets.browseFilterFacetsP95}`, (v) => v <= targets.browseFilterFacetsP95)
    check('autocomplete p50 ms', value(s50.cases.autocomplete, 'p50'), floorOnly(s50.cases.autocomplete), `<= ${targets.autocompleteP50}`, (v) => v <= targets.autocompleteP50)
    check('keyword-only ingestion items/s', s50.ingest.itemsPerSecond, false, `>= ${targets.ingestMinItemsPerSecond}`, (v) => v >= targets.ingestMinItemsPerSecond)
  }
  checks.push({
    name: 'HTTP search req/s vs bare route',
    figure: httpSearch === undefined ? '-' : httpSearch.ratio.toFixed(3),
    target: `>= ${targets.httpSearchMinRatio}`,
    met: httpSearch === undefined ? undefined : httpSearch.ratio >= targets.httpSearchMinRatio
  })
  say('Targets at 50k')
  say(tableOf(['target', 'figure', 'wanted', 'result'], checks.map((c) => [c.name, c.figure, c.target, c.met === undefined ? 'n/a' : c.met ? 'PASS' : 'FAIL']), new Set([0, 3])))
  say()

  // ---- growth 50k → 200k ----
  const s200 = sizes.find((s) => s.size === 200_000)
  const growth: Record<string, string> = {}
  if (s50 !== undefined && s200 !== undefined) {
    const rows: string[][] = []
    const add = (name: string, a: number, b: number, aFloor = false, bFloor = false, fmt = fmtMs) => {
      const text = ratioText(a, b, bFloor, aFloor)
      growth[name] = text
      rows.push([name, Number.isFinite(a) ? `${aFloor ? '>=' : ''}${fmt(a)}` : '-', Number.isFinite(b) ? `${bFloor ? '>=' : ''}${fmt(b)}` : '-', text])
    }
    add('keyword-only ingestion items/s', s50.ingest.itemsPerSecond, s200.ingest.itemsPerSecond, false, false, fmtInt)
    for (const name of CASES) {
      for (const p of ['p50', 'p95'] as const) {
        add(`${CASE_LABELS[name]} ${p} ms`, value(s50.cases[name], p), value(s200.cases[name], p), floorOnly(s50.cases[name]), floorOnly(s200.cases[name]))
      }
    }
    add('index on disk with vectors MB', (s50.ingest.withVectors.file + s50.ingest.withVectors.wal) / 2 ** 20, (s200.ingest.withVectors.file + s200.ingest.withVectors.wal) / 2 ** 20, false, false, (v) => v.toFixed(1))
    add('RSS after load MB', s50.rssAfterLoad / 2 ** 20, s200.rssAfterLoad / 2 ** 20, false, false, (v) => v.toFixed(1))
    say('Growth from 50k to 200k items (4x the items)')
    say(tableOf(['figure', '50k', '200k', '200k / 50k'], rows))
    say()
  }
  say(`total run time ${elapsed()}`)
  process.stdout.write(out.join('\n') + '\n')

  // ---- the one line of JSON ----
  const caseJson = (c: CaseResult | undefined) => c === undefined
    ? null
    : { runs: c.runs, warmup_runs: c.warmupRuns, p50_ms: round(c.p50), p95_ms: round(c.p95), mean_ms: round(c.mean), mean_hits: c.meanHits === null ? null : round(c.meanHits, 1), timed_out: c.timedOut, slowest_ms: round(c.slowestMs), floor_ms: floorOnly(c) ? round(value(c, 'p50')) : null }
  const json = {
    benchmark: 'search',
    machine,
    load_average: { start: Number(loadStart), end: Number(loadEnd) },
    code: { git, fingerprint_start: codeStart, fingerprint_end: codeEnd, changed_during_run: codeChanged },
    seed: 42,
    case_budget_s: CASE_BUDGET_S,
    case_timeout_s: CASE_TIMEOUT_S,
    embedding: {
      measured_items: embed.items,
      items_per_s: round(embed.itemsPerSecond, 1),
      model_ms_per_item: round(embed.modelMsPerItem, 3),
      model_load_ms: round(embed.modelLoadMs, 0),
      distinct_types: embed.distinctTypes,
      vectors: 'pooled: each item has the vector of an embedded item of the same product type'
    },
    sizes: Object.fromEntries(sizes.map((s) => [String(s.size), {
      ingest: {
        keyword_only_items_per_s: round(s.ingest.itemsPerSecond, 1),
        keyword_only_s: round(s.ingest.seconds),
        cpu_s: round(s.ingest.cpuSeconds),
        with_embeddings_estimated_s: round(s.ingest.seconds + s.size * embed.modelMsPerItem / 1000, 1),
        vector_attach_s: round(s.ingest.vectorAttachSeconds),
        vector_fallbacks: s.ingest.vectorFallbacks
      },
      disk_bytes: { keyword_only: s.ingest.keywordOnly, with_vectors: s.ingest.withVectors },
      rss_bytes: { after_load: s.rssAfterLoad, max_queries: s.maxRssQuery, max_ingest: s.ingest.maxRss, after_ingest: s.ingest.rssAfterIngest },
      open_ms: round(s.ready?.openMs ?? Number.NaN),
      first_query_ms: round(s.ready?.firstQueryMs ?? Number.NaN),
      queries: Object.fromEntries(CASES.map((name) => [name, caseJson(s.cases[name])]))
    }])),
    http: http === undefined
      ? null
      : {
          items: HTTP_ITEMS,
          import_s: round(http.importSeconds),
          app_config: http.config,
          readers_failed: http.readersFailed ?? null,
          connections: HTTP_CONNECTIONS,
          duration_s: HTTP_DURATION_S,
          warmup_s: HTTP_WARMUP_S,
          rows: http.rows.map((r) => ({
            name: r.name,
            rps: round(r.result.rps, 1),
            p50_ms: round(r.result.p50),
            p99_ms: round(r.result.p99),
            ratio_to_bare: round(r.ratio, 3),
            requests: r.result.requests,
            non2xx: r.result.non2xx,
            errors: r.result.errors,
            timeouts: r.result.timeouts,
            loop_delay_p99_ms: r.loop === undefined ? null : round(r.loop.p99),
            loop_delay_max_ms: r.loop === undefined ? null : round(r.loop.max),
            server_cpu_s: r.loop === undefined ? null : round(r.loop.cpuMs / 1000)
          }))
        },
    targets: Object.fromEntries(checks.map((c) => [c.name, { figure: c.figure, wanted: c.target, met: c.met ?? null }])),
    growth_200k_over_50k: growth,
    total_s: round((performance.now() - began) / 1000, 1)
  }
  process.stdout.write(JSON.stringify(json) + '\n')
}

try {
  await main()
  await cleanup()
  process.exit(0)
} catch (err) {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err))
  await cleanup()
  process.exit(1)
}
