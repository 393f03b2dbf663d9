// `pnpm bench soak`: the whole service as `pnpm start` runs it (embedded PostgreSQL, demo project and
// catalog) under a steady mixed load of the public API for BENCH_SOAK_MINUTES (30), to see whether
// its memory and latency stay flat (issue 31). Every window prints requests, errors, p50/p99 and the
// process's RSS, V8 heap and external memory; the end compares the last window with minute 5 and
// lists the in-process stores' sizes. BENCH_HEAP=1 adds heap snapshots at minute 5 and at the end
// and the constructors whose retained size grew most between them. BENCH_CPU_PROF=1 profiles every
// thread of the service (node --cpu-prof) and keeps the profiles.
// Progress goes to stderr; the tables and, last, one line of JSON with every figure go to stdout.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { openForPostgresUser } from '@chatsearch/shell'
import { heapSnapshot, startService, type Service } from './service.js'
import { sample, type Sample } from './scrape.js'
import { Mix, World, WEIGHTS } from './mix.js'
import { asItem, FILTERED, seeded, Texts } from './texts.js'
import { clock, int, mb, ms, windowLine, windowRule, Windows, WINDOW_COLUMNS, type ClosedWindow } from './windows.js'
import { grewMost, summariseSnapshot, type Growth, type HeapSummary } from './heap.js'
import { report, type Plan } from './report.js'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

const CLIENTS = 4
const SAMPLE_S = 5
const SEED = 31
/** The shoppers' population grows to this by minute 5, so that chats accumulate over a bounded set. */
const SHOPPERS = 1000
const TOP_CLASSES = 15

function numberEnv (name: string, fallback: number): number {
  const text = process.env[name]
  const value = text === undefined || text === '' ? fallback : Number(text)
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`bench: ${name} must be a positive number (got ${JSON.stringify(text)})\n`)
    process.exit(2)
  }
  return value
}
const MINUTES = numberEnv('BENCH_SOAK_MINUTES', 30)
const RPS = numberEnv('BENCH_SOAK_RPS', 70)
const WINDOW_S = numberEnv('BENCH_SOAK_WINDOW_S', 30)
const HEAP = process.env.BENCH_HEAP === '1'
const KEEP = process.env.BENCH_KEEP === '1'
const CPU_PROF = process.env.BENCH_CPU_PROF === '1'
const WINDOWS = Math.round(MINUTES * 60 / WINDOW_S)
if (WINDOW_S % SAMPLE_S !== 0 || WINDOWS < 2) {
  process.stderr.write(`bench: BENCH_SOAK_WINDOW_S must be a multiple of ${SAMPLE_S} s and the run at least two windows long\n`)
  process.exit(2)
}
const DURATION_S = WINDOWS * WINDOW_S
/** The reference window ends at minute 5, or at a sixth of a shorter run. */
const REF = Math.max(0, Math.min(WINDOWS - 2, Math.round(Math.min(300, DURATION_S / 6) / WINDOW_S) - 1))
const REF_END_S = (REF + 1) * WINDOW_S
const plan: Plan = { durationS: DURATION_S, windowS: WINDOW_S, windows: WINDOWS, ref: REF, sampleS: SAMPLE_S, rps: RPS, clients: CLIENTS, heap: HEAP }
/** Past this the run is abandoned (and cleaned up): the start, the run, the snapshots and their analysis. */
const DEADLINE_MS = (DURATION_S + 30 * 60) * 1000

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)
const out = (line = '') => process.stdout.write(line + '\n')

// ---- clean-up: whatever was started is stopped, on success, failure, Ctrl-C or deadline ----
const { defer, cleanup, abort, stopping } = boundedRun({ log, deadlineMs: DEADLINE_MS })

interface Setup { texts: Texts, facetable: string[], items: number }

/** The catalog's words and facets, read through the API, for the load to draw from. */
async function readCatalog (service: Service): Promise<Setup> {
  const headers = { authorization: `Bearer ${service.searchKey}`, 'content-type': 'application/json' }
  const settings = await (await fetch(`${service.searchUrl}/settings`, { headers })).json() as { filterableAttributes: string[], facetableAttributes: string[] }
  const missing = FILTERED.filter((a) => !settings.filterableAttributes.includes(a))
  if (missing.length > 0) throw new Error(`the demo catalog does not allow filters on ${missing.join(', ')}`)
  const browse = await fetch(`${service.searchUrl}/search`, { method: 'POST', headers, body: JSON.stringify({ search_term: '', limit: 1000 }) })
  const found = await browse.json() as { hits: Array<Record<string, unknown>>, estimatedTotalHits: number }
  return { texts: new Texts(found.hits.map(asItem)), facetable: settings.facetableAttributes, items: found.estimatedTotalHits }
}

/** One request of each kind, before the clock starts: a broken endpoint fails here, not for 30 minutes. */
async function smokeTest (mix: Mix) {
  const r = seeded(SEED - 1)
  const problems: string[] = []
  for (const kind of Object.keys(WEIGHTS) as Array<keyof typeof WEIGHTS>) {
    const outcome = await mix.run(kind, r)
    if (outcome.error !== undefined) problems.push(`${outcome.endpoint}: ${outcome.error}`)
  }
  if (problems.length > 0) throw new Error(`smoke test failed:\n  ${problems.join('\n  ')}`)
}

async function main () {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-soak-'))
  // The embedded PostgreSQL runs as the "postgres" user when we are root.
  await openForPostgresUser(dir)
  const dataDir = join(dir, 'data')
  const heapDir = join(dir, 'heap')
  const cpuDir = join(dir, 'cpu')
  await mkdir(dataDir)
  if (HEAP) await mkdir(heapDir)
  defer(async () => {
    if (KEEP) { log(`kept ${dir}`); return }
    // Snapshots and profiles are kept: they are what BENCH_HEAP=1 and BENCH_CPU_PROF=1 are for.
    await rm(HEAP || CPU_PROF ? dataDir : dir, { recursive: true, force: true })
    if (CPU_PROF) log(`CPU profiles kept in ${cpuDir} (one per thread; Chrome DevTools opens them)`)
  })

  log(`starting the service (pnpm start, DATA_DIR ${dataDir}); the demo catalog is embedded on first start, which takes a minute or two`)
  const startedAt = performance.now()
  const service = await startService({
    dataDir,
    ...(HEAP ? { heapDir } : {}),
    ...(CPU_PROF ? { cpuDir } : {}),
    log,
    started: (stop) => defer(stop),
    // Requests to a service that is gone measure nothing.
    exited: (how) => abort(`the service exited during the run (${how})`, 1)
  })
  const startS = (performance.now() - startedAt) / 1000
  log(`service up in ${startS.toFixed(0)} s (pid ${service.pid}): chat ${service.chatUrl}, search ${service.searchUrl}, console ${service.consoleUrl}`)
  const setup = await readCatalog(service)

  let t0 = 0
  const elapsedS = () => (performance.now() - t0) / 1000
  const world = new World(() => Math.max(20, Math.round(SHOPPERS * Math.min(1, elapsedS() / REF_END_S))))
  // Idempotency keys and item ids of this run alone: a shared Redis (REDIS_URL) may hold another run's.
  const mix = new Mix(service, setup.texts, setup.facetable, world, randomBytes(4).toString('hex'))
  await smokeTest(mix)

  out('')
  out(`Soak benchmark: ${clock(DURATION_S)} at ${RPS} req/s from ${CLIENTS} clients, windows of ${WINDOW_S} s; the whole service as \`pnpm start\` runs it ` +
    `(embedded PostgreSQL, demo catalog of ${int(setup.items)} items), pid ${service.pid}, ready in ${startS.toFixed(0)} s; ` +
    `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`)
  out('')
  out(windowLine(WINDOW_COLUMNS))
  out(windowRule())

  const windows = new Windows(WINDOW_S, WINDOWS)
  const closed: ClosedWindow[] = []
  const samples: Sample[] = []
  const snapshots: string[] = []
  /** While the service writes a heap snapshot it answers nothing: the clients wait for it rather than time out. */
  let refSnapshot: Promise<void> | undefined
  let snapshotting = false
  /** When the reference snapshot paused the service (seconds of the run), and the windows it touched. */
  let pause: { fromS: number, toS?: number } | undefined
  const paused = new Set<number>()
  const touched = (k: number) => pause !== undefined && pause.fromS < (k + 1) * WINDOW_S && (pause.toS === undefined || pause.toS > k * WINDOW_S)
  const snapshot = async () => {
    const began = performance.now()
    const file = await heapSnapshot(service, heapDir)
    log(`heap snapshot written in ${((performance.now() - began) / 1000).toFixed(1)} s: ${file}`)
    return file
  }
  const samplesOf = (k: number) => samples.filter((s) => Math.ceil(s.atS / WINDOW_S) - 1 === k).sort((a, b) => a.atS - b.atS)

  const closeWindow = (k: number) => {
    const figures = windows.close(k)
    closed[k] = figures
    const last = samplesOf(k).at(-1)
    if (touched(k)) paused.add(k)
    const note = touched(k) ? 'paused by the heap snapshot' : ''
    out(windowLine([clock((k + 1) * WINDOW_S), int(figures.all.requests), (figures.all.requests / WINDOW_S).toFixed(1), int(figures.all.errors),
      ms(figures.all.p50), ms(figures.all.p99), mb(last?.rss), mb(last?.heapUsed), mb(last?.heapLive), mb(last?.external)], note))
  }

  // ---- the load ----
  t0 = performance.now()
  const endAt = t0 + DURATION_S * 1000
  const interval = CLIENTS * 1000 / RPS
  const client = async (i: number) => {
    const r = seeded(SEED * 100 + i)
    let next = t0 + i * interval / CLIENTS
    for (;;) {
      const now = performance.now()
      if (now >= endAt || stopping()) return
      if (snapshotting) { await refSnapshot?.catch(() => {}); continue }
      if (next > now) { await sleep(next - now); continue }
      // Behind by more than a second (a slow answer, a pause): carry on from now, without a burst.
      if (now - next > 1000) next = now
      next += interval
      const outcome = await mix.next(r)
      const done = performance.now()
      windows.record((done - t0) / 1000, outcome.endpoint, done - now, outcome.error)
    }
  }
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i))

  // ---- sampling: every SAMPLE_S seconds, each sample on its own so a paused service delays none ----
  const services = [{ service: 'chat', url: service.chatUrl }, { service: 'search', url: service.searchUrl }, { service: 'console', url: service.consoleUrl }]
  const pending: Array<Promise<Sample>> = []
  let closing = Promise.resolve()
  for (let j = 1; j * SAMPLE_S <= DURATION_S; j++) {
    if (stopping()) break
    const wait = t0 + j * SAMPLE_S * 1000 - performance.now()
    if (wait > 0) await sleep(wait)
    const taken = sample(j * SAMPLE_S, service.pid, services, service.metricsToken)
    pending.push(taken)
    taken.then((s) => { samples.push(s) }, () => {})
    const k = (j * SAMPLE_S) / WINDOW_S - 1
    if (!Number.isInteger(k) || k === WINDOWS - 1) continue
    const upTo = pending.slice()
    closing = closing.then(async () => {
      await Promise.all(upTo)
      closeWindow(k)
      if (HEAP && k === REF) {
        snapshotting = true
        pause = { fromS: elapsedS() }
        refSnapshot = snapshot().then((file) => { snapshots[0] = file }).finally(() => { snapshotting = false; pause!.toS = elapsedS() })
        // Its failure is reported at the end, where it is awaited.
        refSnapshot.catch(() => {})
      }
    })
  }
  await Promise.all(clients)
  await Promise.all(pending)
  await closing
  // Interrupted: abort() cleans up and exits; nothing is reported.
  if (stopping()) throw new Error('interrupted')
  closeWindow(WINDOWS - 1)
  samples.sort((a, b) => a.atS - b.atS)

  if (HEAP) {
    log('heap snapshot at the end…')
    await refSnapshot
    snapshots[1] = await snapshot()
  }
  const logLines = service.logLines()
  log('stopping the service…')
  await service.stop()

  let heap: { before: HeapSummary, after: HeapSummary, top: Growth[] } | undefined
  if (HEAP && snapshots[0] !== undefined && snapshots[1] !== undefined) {
    log('analysing the heap snapshots…')
    const before = await summariseSnapshot(snapshots[0])
    const after = await summariseSnapshot(snapshots[1])
    heap = { before, after, top: grewMost(before, after, TOP_CLASSES) }
  }
  return report(plan, { closed, paused, samples, windows, world, logLines, heap, snapshots, setup, startS }, out)
}

try {
  const summary = await main()
  await cleanup()
  process.stdout.write(JSON.stringify(summary) + '\n')
  process.exitCode = summary.ok ? 0 : 1
} catch (err) {
  if (!stopping()) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    await cleanup()
    process.exitCode = 1
  }
}
