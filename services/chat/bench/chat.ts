// `pnpm bench chat`: seeds a realistic database, starts the chat service in a child process and
// measures its endpoints with autocannon against a bare Fastify route on the same machine. Turns
// retrieve for real: the chat service's SEARCH_URL is a search service (another child) holding the
// demo catalog and knowledge.
// Progress goes to stderr; the table and, last, one line of JSON with every figure go to stdout.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cpus, totalmem } from 'node:os'
import pg from 'pg'
import { openDatabase, type Defer } from './database.js'
import { plans, seed, type Seeded } from './seed.js'
import { load, type LoadOptions, type NextRequest } from '@chatsearch/testkit/load'
import type { ChatRun } from './report.js'
import { figures, readEndpoints, round, table, targets, type ReadEndpoint, type Row } from './report.js'
import { shopperMessages } from './messages.js'
import { busyNow, cpuMeter } from './cpu.js'
import type { ServerMessage } from './server.js'
import type { SearchServerMessage } from './search-server.js'
import { freePort } from '@chatsearch/testkit'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10)
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2)
const READ_CONNECTIONS = 50
/** The whole run is abandoned (and cleaned up) past this. */
const DEADLINE_MS = 600_000
/** The chat service's credential at the search service (SERVICE_TOKEN). */
const SERVICE_TOKEN = 'bench-service-token-' + 's'.repeat(32)

const began = performance.now()
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)

// ---- clean-up: whatever was started is stopped, on success, failure, Ctrl-C or deadline ----
const { defer, cleanup }: { defer: Defer, cleanup: () => Promise<void> } = boundedRun({ log, deadlineMs: DEADLINE_MS })

// ---- the servers' process ----
async function stopChild (child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  process.kill(child.pid, 'SIGTERM')
  const timer = setTimeout(() => { if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL') }, 5000)
  await exited
  clearTimeout(timer)
}

interface Servers { chatUrl: string, bareUrl: string, pid: number, startMs: number, stop: () => Promise<void> }

async function startServers (databaseUrl: string, searchUrl: string): Promise<Servers> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
    execArgv: ['--import', import.meta.resolve('tsx'), ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : [])],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_SEARCH_URL: searchUrl, BENCH_SERVICE_TOKEN: SERVICE_TOKEN },
    // The child's stdout joins our stderr: stdout is kept for the report.
    stdio: ['ignore', 2, 2, 'ipc']
  })
  const stop = () => stopChild(child)
  defer(stop)
  const ready = await new Promise<Extract<ServerMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the servers did not start within 120 s')), 120_000)
    child.on('message', (message: ServerMessage) => {
      clearTimeout(timer)
      if (message.type === 'ready') resolve(message)
      else reject(new Error(`the servers failed to start:\n${message.error}`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the servers' process exited (${signal ?? code}) before it was ready`))
    })
  })
  log(`servers up in ${(ready.startMs / 1000).toFixed(1)} s (pid ${child.pid}): chat on 127.0.0.1:${ready.chatPort}, bare on 127.0.0.1:${ready.barePort}`)
  return { chatUrl: `http://127.0.0.1:${ready.chatPort}`, bareUrl: `http://127.0.0.1:${ready.barePort}`, pid: child.pid!, startMs: ready.startMs, stop }
}

interface SearchServer { pid: number, items: number, startMs: number }

/** The search service on `port`, for the project given, once its catalog and knowledge are indexed. */
async function startSearch (databaseUrl: string, projectId: string, port: number): Promise<SearchServer> {
  const child = fork(fileURLToPath(new URL('./search-server.ts', import.meta.url)), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_PROJECT_ID: projectId, BENCH_SEARCH_PORT: String(port), BENCH_SERVICE_TOKEN: SERVICE_TOKEN },
    stdio: ['ignore', 2, 2, 'ipc']
  })
  defer(() => stopChild(child))
  const ready = await new Promise<Extract<SearchServerMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the search service did not start within 300 s')), 300_000)
    child.on('message', (message: SearchServerMessage) => {
      clearTimeout(timer)
      if (message.type === 'ready') resolve(message)
      else reject(new Error(`the search service failed to start:\n${message.error}`))
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the search service's process exited (${signal ?? code}) before it was ready`))
    })
  })
  log(`search service up in ${(ready.startMs / 1000).toFixed(1)} s (pid ${child.pid}) on 127.0.0.1:${port}, ${ready.items} demo items with embeddings`)
  return { pid: child.pid!, items: ready.items, startMs: ready.startMs }
}

// ---- traffic ----
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!

function readRequests (data: Seeded): Record<ReadEndpoint, NextRequest> {
  return {
    latestConsumerChatId: () => ({ path: `/latestConsumerChatId?consumer_id=${encodeURIComponent(pick(data.consumers))}` }),
    listAllProjectConsumerChats: () => ({ path: `/listAllProjectConsumerChats?consumer_id=${encodeURIComponent(pick(data.consumers))}` }),
    readConversation: () => ({ path: `/readConversation?chat_id=${encodeURIComponent(pick(data.longChats))}` })
  }
}

/** Every other request starts a chat for a known consumer; the others continue an existing chat. */
function turnRequests (data: Seeded): NextRequest {
  const post = (body: object) => ({ method: 'POST' as const, path: '/newUserMessage', body: JSON.stringify(body) })
  let n = 0
  return () => {
    const text = pick(shopperMessages).text
    if (n++ % 2 === 0) return post({ user_message: text, consumer_id: pick(data.consumers) })
    const chat = pick(data.shortChats)
    return post({ user_message: text, chat_id: chat.id, consumer_id: chat.consumer_id })
  }
}

/** One request of each kind, its answer checked, before any load: a broken seed fails here. */
async function smokeTest (chatUrl: string, bareUrl: string, data: Seeded) {
  const headers = { authorization: `Bearer ${data.key}`, 'content-type': 'application/json' }
  const get = async (url: string) => {
    const res = await fetch(url, { headers })
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`)
    return await res.json() as Record<string, unknown>
  }
  const consumer = data.consumers[0]!
  const problems: string[] = []
  if ((await get(`${bareUrl}/bare`)).ok !== true) problems.push('/bare')
  const latest = await get(`${chatUrl}/latestConsumerChatId?consumer_id=${consumer}`)
  if (typeof latest.chat_id !== 'string') problems.push(`latestConsumerChatId: ${JSON.stringify(latest)}`)
  const list = await get(`${chatUrl}/listAllProjectConsumerChats?consumer_id=${consumer}`)
  if (list.total_count !== plans.a.chats / plans.a.consumers) problems.push(`listAllProjectConsumerChats: total_count ${String(list.total_count)}`)
  const conversation = await get(`${chatUrl}/readConversation?chat_id=${data.longChats[0]}`) as unknown
  if (!Array.isArray(conversation) || conversation.length !== plans.a.longMessages) problems.push('readConversation: not 20 messages')
  const turn = await fetch(`${chatUrl}/newUserMessage`, { method: 'POST', headers, body: JSON.stringify({ user_message: 'hello there', consumer_id: consumer }) })
  if (turn.status !== 200) problems.push(`newUserMessage answered ${turn.status}: ${await turn.text()}`)
  // Retrieval must work, or the turns measured would be cheaper than real ones.
  const asking = await fetch(`${chatUrl}/newUserMessage`, { method: 'POST', headers, body: JSON.stringify({ user_message: 'Show me waterproof hiking boots', consumer_id: consumer }) })
  const cited = asking.status === 200 ? ((await asking.json()) as { citations?: unknown[] }).citations : undefined
  if (!Array.isArray(cited) || cited.length === 0) problems.push(`newUserMessage cites nothing for a product request (status ${asking.status}): retrieval does not work`)
  if (problems.length > 0) throw new Error(`smoke test failed:\n  ${problems.join('\n  ')}`)
}

/** Why the chat server cannot answer a cheap authenticated query now, or undefined when it can. */
async function probe (chatUrl: string, data: Seeded): Promise<string | undefined> {
  try {
    const res = await fetch(`${chatUrl}/latestConsumerChatId?consumer_id=${data.consumers[0]}`, {
      headers: { authorization: `Bearer ${data.key}` },
      // Longer than the pool's 5 s wait for a connection.
      signal: AbortSignal.timeout(8000)
    })
    const body = await res.text()
    return res.status === 200 ? undefined : `${res.status} ${body.slice(0, 200)}`
  } catch (err) {
    return String(err)
  }
}

async function main () {
  // Other work on the machine takes CPU from the servers and the load generator alike.
  const busyAtStart = await busyNow()
  const busy = busyAtStart !== undefined && busyAtStart > 20
  if (busy) log(`note: the machine is busy (${busyAtStart}% of a core in use before the start); figures may come out low`)
  const database = await openDatabase(defer)
  log(`database: ${database.kind}`)

  // Building the app runs the migrations; it is built in the servers' process. The search service
  // starts once the project it serves is seeded, on a port chosen now.
  const searchPort = await freePort()
  const searchUrl = `http://127.0.0.1:${searchPort}`
  let servers = await startServers(database.url, searchUrl)
  const serverStartMs = servers.startMs

  const pool = new pg.Pool({ connectionString: database.url, max: 2 })
  pool.on('error', () => {})
  defer(() => pool.end())
  const { rows: [version] } = await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")
  let searching: Promise<SearchServer> | undefined
  const data = await seed(pool, log, (projectId) => {
    searching = startSearch(database.url, projectId, searchPort)
    // Awaited below; a failure meanwhile must not go unhandled.
    searching.catch(() => {})
  })
  const search = await searching!
  await smokeTest(servers.chatUrl, servers.bareUrl, data)

  /**
   * After each run the chat server must still answer a cheap query. One that does not (a leaked
   * pool connection, say) is reported and replaced, so the next endpoint is measured on its own.
   */
  const unhealthyAfter: string[] = []
  async function checkHealth (after: string) {
    const problem = await probe(servers.chatUrl, data)
    if (problem === undefined) return
    unhealthyAfter.push(after)
    log(`the chat server is unhealthy after the ${after} run (${problem}); restarting it`)
    await servers.stop()
    servers = await startServers(database.url, searchUrl)
  }

  const auth = { authorization: `Bearer ${data.key}` }
  const run = async (name: string, opts: Omit<LoadOptions, 'url' | 'durationS' | 'warmupS'>, url = servers.chatUrl) => {
    log(`${name}: ${opts.connections} connection${opts.connections === 1 ? '' : 's'}, ${WARMUP_S} s warm-up + ${DURATION_S} s`)
    const cpu = cpuMeter([servers.pid, search.pid], database.clusterDir)
    const result: ChatRun = await load({ ...opts, url, durationS: DURATION_S, warmupS: WARMUP_S })
    result.cpu = cpu()
    log(`${name}: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
      `non-2xx ${result.non2xx}${result.non2xx > 0 ? ` ${JSON.stringify(result.statusCodes)}` : ''}, errors ${result.errors}` +
      (result.cpu === undefined ? '' : `, CPU % load generator ${result.cpu.loadgen} / servers ${result.cpu.server} / PostgreSQL ${result.cpu.postgres ?? '-'} / other ${result.cpu.other}`))
    if (url === servers.chatUrl) await checkHealth(`${name} (${opts.connections} conn.)`)
    return result
  }

  const bare = await run('bare', { connections: READ_CONNECTIONS, next: () => ({ path: '/bare' }) }, servers.bareUrl)
  // The chat app's cheapest route: what its hooks (security headers, request ids, metrics, logging)
  // cost before any credential or query, between the bare route and a read.
  const appHealth = await run('healthz', { connections: READ_CONNECTIONS, next: () => ({ path: '/healthz' }) })
  const reads = {} as Record<ReadEndpoint, ChatRun>
  const next = readRequests(data)
  for (const name of readEndpoints) {
    reads[name] = await run(name, { connections: READ_CONNECTIONS, headers: auth, next: next[name] })
  }
  const turnHeaders = { ...auth, 'content-type': 'application/json' }
  const turn1 = await run('newUserMessage', { connections: 1, headers: turnHeaders, next: turnRequests(data) })
  const turn10 = await run('newUserMessage', { connections: 10, headers: turnHeaders, next: turnRequests(data) })

  // ---- report ----
  const ratio = (r: ChatRun) => r.rps / bare.rps
  const readMet = (r: ChatRun) => ratio(r) >= targets.readMinRatio && r.p99 <= targets.readMaxP99Ms
  const met = {
    latestConsumerChatId: readMet(reads.latestConsumerChatId),
    listAllProjectConsumerChats: readMet(reads.listAllProjectConsumerChats),
    readConversation: readMet(reads.readConversation),
    newUserMessage: turn1.p50 <= targets.turnMaxP50Ms
  }
  const allMet = Object.values(met).every(Boolean)
  const runs = [bare, appHealth, ...Object.values(reads), turn1, turn10]
  const failures = runs.reduce((n, r) => n + r.non2xx + r.errors, 0)
  const ok = failures === 0 && unhealthyAfter.length === 0

  const readTarget = `>= ${targets.readMinRatio.toFixed(2)}x bare, p99 <= ${targets.readMaxP99Ms} ms`
  const rows: Row[] = [
    { name: 'GET /bare (baseline)', result: bare, ratio: 1, target: '' },
    { name: 'GET /healthz (chat app, no auth, no query)', result: appHealth, ratio: ratio(appHealth), target: '' },
    ...readEndpoints.map((name) => ({ name: `GET /${name}`, result: reads[name], ratio: ratio(reads[name]), target: readTarget, met: met[name] })),
    { name: 'POST /newUserMessage', result: turn1, target: `p50 <= ${targets.turnMaxP50Ms} ms`, met: met.newUserMessage },
    { name: 'POST /newUserMessage', result: turn10, target: '(reported)' }
  ]
  // A quarter of a core used by something else. With DATABASE_URL the database's own CPU is not
  // told apart from the rest, so nothing is flagged.
  const disturbed = rows
    .filter((r) => r.result.cpu !== undefined && r.result.cpu.postgres !== null && r.result.cpu.other > 25)
    .map((r) => `${r.name} (${r.result.connections} conn.)`)
  const seedMs = data.insertMs + data.analyzeMs
  const cpuModel = cpus()[0]?.model ?? 'unknown'
  const out = [
    '',
    `Chat service benchmark: ${DURATION_S} s per run after a ${WARMUP_S} s warm-up, 127.0.0.1, ${cpus().length} CPUs (${cpuModel}), Node ${process.version}, PostgreSQL ${version?.v} (${database.kind})`,
    `Seed: ${plans.a.chats.toLocaleString('en-US')} chats / ${plans.a.messages.toLocaleString('en-US')} messages / ${plans.a.consumers.toLocaleString('en-US')} consumers (project A) + ` +
      `${plans.b.chats.toLocaleString('en-US')} / ${plans.b.messages.toLocaleString('en-US')} / ${plans.b.consumers.toLocaleString('en-US')} (project B) in ${(seedMs / 1000).toFixed(1)} s ` +
      `(inserts ${(data.insertMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(data.analyzeMs / 1000).toFixed(1)} s); chat server ready in ${(serverStartMs / 1000).toFixed(1)} s`,
    '',
    ...(busy ? [`Note: the machine was busy when the run started (${busyAtStart}% of a core in use by other processes).`, ''] : []),
    table(rows),
    '',
    'GET /healthz: the chat app\'s own hooks (security headers, request id, metrics, logging) without a credential or a query; a read adds its credential check and one PostgreSQL round trip to it.',
    `newUserMessage: req/s = turns/s; half the turns start a chat, half continue one; each retrieves from the search service (${search.items} demo items, hybrid).`,
    `CPU: % of one core over the run (warm-up included) used by the load generator / the servers' processes (chat and bare; search) / PostgreSQL${database.clusterDir === undefined ? ' (not measured: DATABASE_URL)' : ''} / other processes;`,
    `  CPU µs/req: CPU time per request of the load generator, the servers${database.clusterDir === undefined ? '' : ' and PostgreSQL'}; much less sensitive than req/s to other work on the machine.`,
    ...(disturbed.length === 0 ? [] : [`Disturbed: other processes took CPU during ${disturbed.join(', ')}; those figures come out low.`]),
    `Targets: ${allMet ? 'all met' : `missed by ${Object.entries(met).filter(([, ok]) => !ok).map(([name]) => name).join(', ')}`}. ` +
      `Responses: ${failures === 0 ? 'all 2xx' : `${failures} non-2xx or failed requests`}` +
      `${unhealthyAfter.length === 0 ? '' : `; the chat server stopped answering after ${unhealthyAfter.join(', ')} and was restarted`}` +
      `${ok ? '.' : ' — the run FAILS.'}`,
    ''
  ]
  process.stdout.write(out.join('\n') + '\n')

  const summary = {
    benchmark: 'chat',
    ok,
    unhealthy_after: unhealthyAfter,
    disturbed_runs: disturbed,
    targets_met: { ...met, all: allMet },
    targets: { read_min_ratio: targets.readMinRatio, read_max_p99_ms: targets.readMaxP99Ms, new_user_message_max_p50_ms: targets.turnMaxP50Ms },
    seed: {
      total_ms: Math.round(seedMs),
      insert_ms: Math.round(data.insertMs),
      vacuum_analyze_ms: Math.round(data.analyzeMs),
      project_a: { chats: plans.a.chats, messages: plans.a.messages, consumers: plans.a.consumers, chats_of_20_messages: data.longChats.length },
      project_b: { chats: plans.b.chats, messages: plans.b.messages, consumers: plans.b.consumers }
    },
    server_start_ms: Math.round(serverStartMs),
    search_start_ms: Math.round(search.startMs),
    endpoints: {
      bare: { ...figures(bare), ratio: 1 },
      healthz: { ...figures(appHealth), ratio: round(ratio(appHealth), 3) },
      ...Object.fromEntries(readEndpoints.map((name) => [name, { ...figures(reads[name]), ratio: round(ratio(reads[name]), 3) }]))
    },
    newUserMessage: {
      c1: { ...figures(turn1), turns_per_s: round(turn1.rps, 1) },
      c10: { ...figures(turn10), turns_per_s: round(turn10.rps, 1) }
    },
    machine: {
      cpus: cpus().length,
      cpu_model: cpuModel,
      memory_gb: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      busy_before_start_pct: busyAtStart ?? null,
      postgres: version?.v,
      database: database.kind
    },
    duration_s: DURATION_S,
    warmup_s: WARMUP_S,
    total_s: round((performance.now() - began) / 1000, 1)
  }
  return summary
}

try {
  const summary = await main()
  await cleanup()
  summary.total_s = round((performance.now() - began) / 1000, 1)
  process.stdout.write(JSON.stringify(summary) + '\n')
  process.exitCode = summary.ok ? 0 : 1
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  await cleanup()
  process.exitCode = 1
}
