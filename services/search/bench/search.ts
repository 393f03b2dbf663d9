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
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { testDatabase } from '@chatsearch/testkit'
import type { CaseEnd, ChildMessage, EmbedReport, IngestReport, QueryReadyReport } from './engine-child.js'
import type { ServerRequest } from './server.js'
import { readLoop, serverReady, type ServerLoop } from './server-child.js'
import { load, type LoadResult } from '@chatsearch/testkit/load'
import { CASES, FACETS, FILTERS, LIMIT, QUERY_COUNT, SUGGEST_LIMIT, keywordQueries, percentile, prefixes, round, type CaseName } from './workload.js'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

/** BENCH_SIZES= (empty) leaves out the in-process part (for an HTTP comparison of engines alone). */
const SIZES = (process.env.BENCH_SIZES ?? '50000,200000').split(',').filter((s) => s.trim() !== '').map(Number)
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
/** With MEILI_URL set, the HTTP part runs a second time on that Meilisearch (indexes of its own, deleted after). */
const MEILI_URL = process.env.MEILI_URL === '' ? undefined : process.env.MEILI_URL
/**
 * A catalog of your own for the HTTP part (BENCH_CATALOG: a JSON array or JSON Lines file), searched
 * with your queries (BENCH_QUERIES: one per line; autocomplete types their first 2-4 letters) and,
 * for the filtered row, BENCH_FILTER and BENCH_FACETS (comma-separated). Without them, the generated catalog.
 */
const OWN = process.env.BENCH_CATALOG === undefined
  ? undefined
  : {
      // Paths are read as given where `pnpm bench` was run (pnpm's INIT_CWD), not in this package.
      catalog: resolve(process.env.INIT_CWD ?? '.', process.env.BENCH_CATALOG),
      queries: process.env.BENCH_QUERIES === undefined ? undefined : resolve(process.env.INIT_CWD ?? '.', process.env.BENCH_QUERIES),
      filter: process.env.BENCH_FILTER,
      facets: process.env.BENCH_FACETS?.split(',').map((f) => f.trim()).filter((f) => f !== '')
    }
if (OWN !== undefined && OWN.queries === undefined) {
  process.stderr.write('bench: BENCH_CATALOG needs BENCH_QUERIES (a file with one query per line)\n')
  process.exit(2)
}

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
const { defer, cleanup, stopping } = boundedRun({ log, deadlineMs: DEADLINE_MS })

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

type EngineName = 'embedded' | 'meilisearch'
interface HttpRun { engine: EngineName, rows: HttpResult[], items: number, importSeconds: number, config: Record<string, unknown>, readersFailed: string | undefined }

/** The queries and autocomplete terms of the HTTP part: the generated ones, or BENCH_QUERIES's. */
function httpQueries (): { queries: string[], terms: string[] } {
  if (OWN === undefined) return { queries: keywordQueries(QUERY_COUNT), terms: prefixes(QUERY_COUNT) }
  const queries = readFileSync(OWN.queries!, 'utf8').split('\n').map((q) => q.trim()).filter((q) => q !== '')
  if (queries.length === 0) throw new Error(`${OWN.queries} holds no query`)
  const terms = queries.map((q, i) => q.split(/\s+/)[0]!.slice(0, 2 + (i % 3)))
  return { queries, terms }
}

/** The filtered, faceted row's filters and facets; undefined: your catalog, without BENCH_FILTER or BENCH_FACETS. */
function httpFilters (): { filters: string[], facets: string[] } | undefined {
  if (OWN === undefined) return { filters: FILTERS, facets: FACETS }
  if (OWN.filter === undefined && OWN.facets === undefined) return undefined
  return { filters: OWN.filter === undefined ? [] : [OWN.filter], facets: OWN.facets ?? [] }
}

async function measureHttp (root: string, engine: EngineName): Promise<HttpRun> {
  log(`HTTP ${engine}: starting PostgreSQL`)
  const databaseUrl = await testDatabase({ teardown: defer })
  const dataDir = join(root, `http-${engine}`)
  log(`HTTP ${engine}: starting the search app and importing ${OWN === undefined ? `${HTTP_ITEMS} items` : OWN.catalog} (keyword-only)`)
  const child = forkChild('./server.ts', [], {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_DATA_DIR: dataDir,
    BENCH_ITEMS: String(HTTP_ITEMS),
    BENCH_ENGINE: engine,
    ...(OWN === undefined ? {} : { BENCH_CATALOG: OWN.catalog })
  })
  try {
    // Meilisearch indexes asynchronously and may take much longer than the embedded engine.
    const ready = await serverReady(child, engine === 'meilisearch' ? 1_800_000 : 240_000)
    log(`HTTP ${engine}: imported ${ready.items} items in ${ready.importSeconds.toFixed(1)} s; load ${load1()}`)
    const searchUrl = `http://127.0.0.1:${ready.searchPort}`
    const headers = { authorization: `Bearer ${ready.key}` }
    const { queries, terms } = httpQueries()
    const filtered = httpFilters()
    let i = 0
    const ask = (m: ServerRequest) => { child.send(m) }
    const run = async (label: string, url: string, next: () => { path: string, method: 'POST', body: string }) => {
      const name = `${engine}: ${label}`
      log(`HTTP: ${name}, ${HTTP_CONNECTIONS} connections, ${HTTP_WARMUP_S} + ${HTTP_DURATION_S} s; load ${load1()}`)
      i = 0
      ask({ type: 'loop-reset' })
      const result = await load({ url, connections: HTTP_CONNECTIONS, durationS: HTTP_DURATION_S, warmupS: HTTP_WARMUP_S, headers, next })
      const loop = await readLoop(child)
      log(`HTTP: ${name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}` +
        (loop === undefined ? '' : `; server event-loop delay p99 ${loop.p99.toFixed(0)} ms, max ${loop.max.toFixed(0)} ms, CPU ${(loop.cpuMs / 1000).toFixed(1)} s`))
      return { result, loop }
    }
    const bare = await run('bare route', `http://127.0.0.1:${ready.barePort}`, () => ({ path: '/bare', method: 'POST', body: JSON.stringify({ search_term: queries[i++ % queries.length] }) }))
    const rows: HttpResult[] = [{ name: 'bare Fastify route (POST, JSON)', result: bare.result, ratio: 1, loop: bare.loop }]
    const add = (name: string, { result, loop }: { result: LoadResult, loop: HttpResult['loop'] }) => rows.push({ name, result, ratio: result.rps / bare.result.rps, loop })
    add('POST /autocomplete', await run('autocomplete', searchUrl, () => ({ path: '/autocomplete', method: 'POST', body: JSON.stringify({ autocomplete_term: terms[i++ % terms.length] }) })))
    add('POST /search keyword only (info)', await run('search keyword', searchUrl, () => ({ path: '/search', method: 'POST', body: JSON.stringify({ search_term: queries[i++ % queries.length] }) })))
    // Last: a server stuck in long queries is killed afterwards rather than waited for.
    if (filtered !== undefined) {
      const { filters, facets } = filtered
      add(`POST /search kw + filter + ${facets.length} facets`, await run('search keyword + filter + facets', searchUrl, () => {
        const n = i++
        return { path: '/search', method: 'POST', body: JSON.stringify({ search_term: queries[n % queries.length], filters: filters.length === 0 ? null : filters[n % filters.length], facets, limit: LIMIT }) }
      }))
    }
    return { engine, rows, items: ready.items, importSeconds: ready.importSeconds, config: ready.config, readersFailed: ready.readersFailed }
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

  // The in-process part's hybrid cases borrow these vectors; without sizes there is nothing to lend them to.
  let embed: EmbedReport | undefined
  if (SIZES.length > 0) {
    log(`embedding ${EMBED_ITEMS} items with USE-lite (measured ingestion with embeddings; their vectors become the pool)`)
    embed = (await engineStep('embed', [root, String(EMBED_ITEMS)], 'embedded')).report
    log(`embedded ${embed.items} items in ${embed.seconds.toFixed(1)} s (${embed.itemsPerSecond.toFixed(0)} items/s; model ${embed.modelMsPerItem.toFixed(2)} ms/item)`)
  }

  const sizes: SizeResult[] = []
  for (const size of SIZES) {
    log(`${size}: ingesting keyword-only; load ${load1()}`)
    const ingest = (await engineStep('ingest', [root, String(size)], 'ingested')).report
    log(`${size}: ${ingest.itemsPerSecond.toFixed(0)} items/s keyword-only; vectors attached in ${ingest.vectorAttachSeconds.toFixed(1)} s; ${mb(ingest.withVectors.file + ingest.withVectors.wal)} on disk`)
    const q = await measureQueries(root, size)
    sizes.push({ size, ingest, ready: q.ready, cases: q.cases, rssAfterLoad: q.ready?.rssAfterLoad ?? Number.NaN, maxRssQuery: q.maxRss })
    await rm(join(root, `index-${size}`), { recursive: true, force: true })
  }

  const runs: HttpRun[] = []
  let meiliFailed: string | undefined
  if (RUN_HTTP) {
    runs.push(await measureHttp(root, 'embedded'))
    // A Meilisearch that fails does not cost the embedded figures: the report says what happened.
    if (MEILI_URL !== undefined) {
      try {
        runs.push(await measureHttp(root, 'meilisearch'))
      } catch (err) {
        meiliFailed = err instanceof Error ? err.message : String(err)
        log(`HTTP meilisearch: ${meiliFailed}`)
      }
    }
  }
  const http = runs[0]
  const loadEnd = load1()
  const codeEnd = codeFingerprint()
  const codeChanged = codeEnd !== codeStart
  if (codeChanged) log('WARNING: src/ or catalog/ changed during the run: the figures mix versions of the code')

  // ---- tables ----
  const out: string[] = []
  const say = (line = '') => out.push(line)
  say(`Search benchmark — embedded engine (SQLite FTS5 + sqlite-vec)${MEILI_URL === undefined ? '' : `, and Meilisearch at ${MEILI_URL} over HTTP`}; ${OWN === undefined ? 'synthetic catalog seed 42' : `HTTP part on ${OWN.catalog} with the queries of ${OWN.queries!}`}`)
  say(`${machine}; load average ${loadStart} at start, ${loadEnd} at end (other work on the machine shows up as noise)`)
  say(`code: ${git}; src+catalog fingerprint ${codeStart}${codeChanged ? ` → ${codeEnd}: WARNING, CHANGED DURING THE RUN, the figures mix versions of the code` : ' (unchanged during the run)'}`)
  say()
  if (embed !== undefined) {
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
  }
  if (http === undefined) {
    say('HTTP: not measured (BENCH_HTTP=0)')
  }
  for (const run of runs) {
    const catalog = OWN === undefined ? `${fmtInt(run.items)} generated items` : `${fmtInt(run.items)} items of ${OWN.catalog}`
    say(`HTTP, ${run.engine} engine (autocannon, ${HTTP_CONNECTIONS} connections, ${HTTP_WARMUP_S} s warm-up + ${HTTP_DURATION_S} s; search app with ${catalog} imported keyword-only in ${run.importSeconds.toFixed(1)} s; servers in a child process)`)
    say(`  app config (service defaults, embeddings off): ${JSON.stringify(run.config)}`)
    if (run.readersFailed !== undefined) {
      say(`  NOTE: with the default reader threads every search failed (${run.readersFailed.split('\n')[0]}); measured with readers: 0.`)
    }
    say(tableOf(['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx', 'errors', 'timeouts', 'loop delay p99/max ms', 'server CPU s'], run.rows.map((r) => [
      r.name, fmtInt(r.result.rps), fmtMs(r.result.p50), fmtMs(r.result.p99), r.ratio.toFixed(3), String(r.result.non2xx), String(r.result.errors), String(r.result.timeouts),
      r.loop === undefined ? '-' : `${r.loop.p99.toFixed(0)}/${r.loop.max.toFixed(0)}`,
      r.loop === undefined ? '-' : (r.loop.cpuMs / 1000).toFixed(1)
    ])))
    say(`  loop delay: how long the search server's event loop was held up during the run; server CPU: its CPU time over the ${HTTP_WARMUP_S + HTTP_DURATION_S} s run.`)
  }
  const meili = runs.find((r) => r.engine === 'meilisearch')
  if (meiliFailed !== undefined) say(`HTTP, meilisearch engine at ${MEILI_URL}: FAILED, not measured: ${meiliFailed.split('\n').slice(0, 2).join(' ')}`)
  if (http !== undefined && meili !== undefined) {
    say()
    say('Engines compared on the same catalog and requests (each against its own bare route, same run)')
    say(tableOf(['endpoint', 'embedded req/s', 'meilisearch req/s', 'meili / embedded', 'embedded p50 ms', 'meilisearch p50 ms'], http.rows.slice(1).map((r, k) => {
      const m = meili.rows[k + 1]!
      return [r.name, fmtInt(r.result.rps), fmtInt(m.result.rps), (m.result.rps / r.result.rps).toFixed(2), fmtMs(r.result.p50), fmtMs(m.result.p50)]
    })))
    say('  Meilisearch\'s own CPU is not counted in "server CPU s" (it runs in its own process, possibly elsewhere).')
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
  // The HTTP target is set on the generated 50k catalog; on a catalog of your own it is only a figure.
  if (OWN === undefined) {
    checks.push({
      name: 'HTTP search req/s vs bare route',
      figure: httpSearch === undefined ? '-' : httpSearch.ratio.toFixed(3),
      target: `>= ${targets.httpSearchMinRatio}`,
      met: httpSearch === undefined ? undefined : httpSearch.ratio >= targets.httpSearchMinRatio
    })
  }
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
    embedding: embed === undefined
      ? null
      : {
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
        with_embeddings_estimated_s: round(s.ingest.seconds + s.size * embed!.modelMsPerItem / 1000, 1),
        vector_attach_s: round(s.ingest.vectorAttachSeconds),
        vector_fallbacks: s.ingest.vectorFallbacks
      },
      disk_bytes: { keyword_only: s.ingest.keywordOnly, with_vectors: s.ingest.withVectors },
      rss_bytes: { after_load: s.rssAfterLoad, max_queries: s.maxRssQuery, max_ingest: s.ingest.maxRss, after_ingest: s.ingest.rssAfterIngest },
      open_ms: round(s.ready?.openMs ?? Number.NaN),
      first_query_ms: round(s.ready?.firstQueryMs ?? Number.NaN),
      queries: Object.fromEntries(CASES.map((name) => [name, caseJson(s.cases[name])]))
    }])),
    http: http === undefined ? null : httpJson(http),
    http_meilisearch: meili === undefined ? (meiliFailed === undefined ? null : { failed: meiliFailed }) : httpJson(meili),
    targets: Object.fromEntries(checks.map((c) => [c.name, { figure: c.figure, wanted: c.target, met: c.met ?? null }])),
    growth_200k_over_50k: growth,
    total_s: round((performance.now() - began) / 1000, 1)
  }
  process.stdout.write(JSON.stringify(json) + '\n')
}

function httpJson (http: HttpRun) {
  return {
    engine: http.engine,
    catalog: OWN?.catalog ?? 'generated',
    items: http.items,
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
  }
}

try {
  await main()
  await cleanup()
  process.exit(0)
} catch (err) {
  // Interrupted: the child processes were stopped under main(), which is why it threw.
  if (!stopping()) log(err instanceof Error ? (err.stack ?? err.message) : String(err))
  await cleanup()
  process.exit(1)
}
