// `pnpm eval`: a measurement of the shop assistant, end to end (POST /newUserMessage on the chat app,
// which asks a real search service over HTTP: embedded engine, default embeddings, embedded PostgreSQL),
// over several datasets, with development and held-out figures side by side.
//
// Datasets (datasets.ts loads and checks them; test/eval-data.test.ts does the same without servers):
//   help/<name>/      a help corpus: its pages and FAQ pairs become the project's knowledge, its catalog is
//                     empty; asked questions.json (one chat each) and conversations.json.
//   catalogs/<name>/  a catalog: its items (with settings.json applied first), no knowledge; asked
//                     requests.json (one chat each) and conversations.json.
//   catalogs/demo/    the project's own demo: demoCatalogFile and demoKnowledge() of @chatsearch/search.
// One project per dataset. Every entry says "split": "dev" | "heldout"; a dataset named in splits.json
// counts wholly as held-out. Tune on dev; held-out replies are not listed unless EVAL_SHOW_HELDOUT=1.
//
// questions.json: [{ id, split, category, say, sources?, facts?, classification }]
//   answerable / problem / faq   answered: the reply holds one of `facts`, cites one of `sources` (page id =
//                                the knowledge reference before '#', or an FAQ id), and is not handed off.
//   unanswerable                 handled: handed off, and no knowledge/faq citation.
//   action                       handed off (an action on the shopper's order/account, a complaint, a person).
// requests.json: [{ id, split, say, relevant, classification }]: not handed off; `relevant` non-empty: the reply
//   cites one of them; `relevant: []`: the reply cites no item.
// conversations.json: [{ id, split, category, turns: [{ say, expect }] }], one chat per conversation. `expect`
// holds any of these checks, each of which must hold for the turn to pass (turn numbers count from 0):
//   handoff: boolean                   the reply's `handoff` flag is this
//   classification: string             the reply's classification is this
//   cites_catalog: boolean             the reply cites (true) / does not cite (false) a catalog item
//   cites_knowledge: boolean           the reply cites (true) / does not cite (false) a knowledge page or FAQ
//   cites_source: string[]             a knowledge/faq citation points at one of these documents, and none elsewhere
//   contains_any: string[]             the reply contains one of these (case-insensitive, after norm())
//   cites_any_of: string[]             the reply cites at least one of these item ids
//   cites_turn_item: [turn, n]         the reply cites the item cited n-th (from 0) in that turn's reply
//   contains_price_of_turn_item: [turn, n]   the reply holds that item's price in the dataset ("$12.34")
//   names_higher_rated: [turn, n, m]   of items n and m of that turn, the one the reply names last (its verdict)
//                                      is the one the catalog rates higher (a tie accepts either)
//   names_cheaper: [turn, n, m]        the same for the lower price
//   cites_none_of_turn: turn           no item cited in that turn is cited (a change of subject)
//
// Figures, each for dev and for held-out (see ROWS below; checks.ts computes them):
//   help answered (problem answered apart), faq answered, citation precision (knowledge/faq citations of
//   answerable/problem/faq questions and of turns with cites_source), handoff precision/recall (questions,
//   requests, turns with expect.handoff), unanswerable handled, product requests, absent products,
//   conversation checks (turns passing every check; also per conversation category), follow-ups (turns of
//   help corpora's conversations of category follow-up), false promises (replies matching promisedActions()),
//   classification (messages with an expected classification that get it).
// Output: the table, one line per dataset, the failed checks of dev entries (held-out ones counted only),
// one JSON line. It is a measurement: it exits 0 whatever the figures; non-zero only when it cannot run.
//
// Environment: EMBEDDER=use-lite|static (the search service's bundled embedder, as its variable; default use-lite),
// CATALOG_EMBEDDER=use-lite|static (the catalogs' alone, as its variable; default EMBEDDER's),
// EVAL_SPLIT=dev|heldout|all (default all: which entries are sent), EVAL_ONLY=name,name (datasets,
// by name or as help/<name>, catalogs/<name>), EVAL_VERBOSE=1 (every check with its reply), EVAL_SHOW_HELDOUT=1
// (list held-out replies too), EVAL_DEADLINE_S (default 900), EVAL_FEATURES=<file> (writes the evidence
// features of development questions and requests with their labels, for eval/fit.ts), EVAL_EXPLAIN=1 (prints
// the best evidence of each development question, request and conversation turn to stderr).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey, createProject } from '@chatsearch/auth'
import type { Message } from '@chatsearch/contracts'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { buildApp as buildSearch, ingestDocuments, ingestKnowledge } from '@chatsearch/search'
import { readSearchEnv } from '@chatsearch/search/tools'
import { buildApp } from '../src/app.js'
import { judgeQuestion, judgeRequest, judgeTurn, summarise, type Answer, type Observation, type Ratio, type ShareFigure, type Summary } from './checks.js'
import { evidenceFeatures, explain as explainEvidence } from './features.js'
import { DatasetError, loadDatasets, missingFacts, splitOf, type Dataset, type Split } from './datasets.js'
import { boundedRun } from '@chatsearch/testkit/bounded-run'

const TOKEN = 'eval-service-token-' + 'e'.repeat(32)
const DEADLINE_MS = Number(process.env.EVAL_DEADLINE_S ?? 900) * 1000
const VERBOSE = process.env.EVAL_VERBOSE === '1'
const SHOW_HELDOUT = process.env.EVAL_SHOW_HELDOUT === '1'
const SPLIT = process.env.EVAL_SPLIT ?? 'all'
const { EMBEDDER, CATALOG_EMBEDDER } = readSearchEnv({ EMBEDDER: process.env.EMBEDDER, CATALOG_EMBEDDER: process.env.CATALOG_EMBEDDER })
const ONLY = process.env.EVAL_ONLY === undefined || process.env.EVAL_ONLY.trim() === '' ? undefined : process.env.EVAL_ONLY.split(',').map((s) => s.trim()).filter((s) => s !== '')

type RowKey = ShareFigure | 'citationPrecision' | 'handoffPrecision' | 'handoffRecall' | 'falsePromises'
interface Row { key: RowKey, label: string, target?: number }
const ROWS: Row[] = [
  { key: 'helpAnswered', label: 'help answered', target: 0.85 },
  { key: 'problemAnswered', label: '  problem answered' },
  { key: 'faqAnswered', label: 'faq answered', target: 0.9 },
  { key: 'citationPrecision', label: 'citation precision', target: 0.9 },
  { key: 'handoffPrecision', label: 'handoff precision', target: 0.9 },
  { key: 'handoffRecall', label: 'handoff recall', target: 0.9 },
  { key: 'unanswerableHandled', label: 'unanswerable handled', target: 0.9 },
  { key: 'productRequests', label: 'product requests', target: 0.9 },
  { key: 'absentProducts', label: 'absent products' },
  { key: 'conversationChecks', label: 'conversation checks', target: 0.85 },
  { key: 'followUps', label: 'follow-ups' },
  { key: 'falsePromises', label: 'false promises', target: 0 },
  { key: 'classification', label: 'classification', target: 0.95 }
]
const TARGETS = Object.fromEntries(ROWS.filter((r) => r.target !== undefined).map((r) => [r.key, r.target]))

const EXPLAIN = process.env.EVAL_EXPLAIN === '1'
const FEATURES = process.env.EVAL_FEATURES === undefined || process.env.EVAL_FEATURES === '' ? undefined : process.env.EVAL_FEATURES
const began = performance.now()
const log = (line: string) => process.stderr.write(`[eval ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const { defer, cleanup, stopping } = boundedRun({ log, deadlineMs: DEADLINE_MS })

/** Embedding holds the event loop: done in small batches, so that Ctrl-C is seen within seconds. */
async function inBatches<T> (all: T[], size: number, fn: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < all.length; i += size) {
    if (stopping()) throw new Error('interrupted')
    await fn(all.slice(i, i + size))
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const short = (s: string, n = 160) => { const t = s.replace(/\s+/g, ' '); return t.length > n ? `${t.slice(0, n)}…` : t }
const ratio = (r: Ratio): number | null => r.of === 0 ? null : r.passed / r.of

/** A figure of a summary as {value, passed, of}; value null when nothing was measured. */
function figure (s: Summary, key: RowKey): { value: number | null, passed: number, of: number } {
  const h = s.handoff
  const r: Ratio = key === 'citationPrecision'
    ? s.citations
    : key === 'handoffPrecision'
      ? { passed: h.tp, of: h.tp + h.fp }
      : key === 'handoffRecall'
        ? { passed: h.tp, of: h.tp + h.fn }
        : key === 'falsePromises' ? s.promises : s.shares[key]
  if (key === 'falsePromises') return { value: r.passed, passed: r.passed, of: r.of }
  return { value: ratio(r), ...r }
}
function cell (s: Summary, key: RowKey): string {
  const f = figure(s, key)
  if (key === 'falsePromises') return f.of === 0 ? '—' : `${f.passed} (of ${f.of} replies)`
  return f.value === null ? '—' : `${f.value.toFixed(3)} (${f.passed}/${f.of})`
}
const target = (row: Row) => row.target === undefined ? '' : row.key === 'falsePromises' ? `= ${row.target}` : `>= ${row.target}`

if (!['dev', 'heldout', 'all'].includes(SPLIT)) {
  process.stderr.write(`EVAL_SPLIT must be dev, heldout or all, not ${JSON.stringify(SPLIT)}\n`)
  process.exit(2)
}
const wanted = (split: Split) => SPLIT === 'all' || SPLIT === split

try {
  const all = await loadDatasets(undefined, ONLY)
  for (const problem of all.flatMap(missingFacts)) log(`warning: ${problem}`)
  // Only the entries of the split asked for; a dataset with none is not set up.
  const datasets = all.map((d) => ({
    ...d,
    questions: d.questions.filter((q) => wanted(splitOf(d, q))),
    requests: d.requests.filter((r) => wanted(splitOf(d, r))),
    conversations: d.conversations.filter((c) => wanted(splitOf(d, c)))
  })).filter((d) => d.questions.length + d.requests.length + d.conversations.length > 0)
  if (datasets.length === 0) throw new Error(`no entries to send (EVAL_SPLIT=${SPLIT}${ONLY === undefined ? '' : `, EVAL_ONLY=${ONLY.join(',')}`})`)

  log('starting PostgreSQL…')
  const databaseUrl = await testDatabase({ teardown: defer })
  const dataDir = await mkdtemp(join(tmpdir(), 'chat-eval-'))
  defer(() => rm(dataDir, { recursive: true, force: true }))
  const search = await buildSearch({ databaseUrl, dataDir, embeddings: true, embedder: EMBEDDER, ...(CATALOG_EMBEDDER === undefined ? {} : { catalogEmbedder: CATALOG_EMBEDDER }), readers: 1, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN })
  defer(() => search.close())
  const pool = createPool(databaseUrl, 2)
  defer(() => pool.end())

  const keys = new Map<Dataset, string>()
  const projects = new Map<Dataset, string>()
  const setupSeconds: Record<string, number> = {}
  for (const d of datasets) {
    const t0 = performance.now()
    const project = await createProject(pool, `eval-${d.kind}-${d.name}`)
    keys.set(d, (await createKey(pool, project.id, 'chat', 'eval')).key)
    projects.set(d, project.id)
    log(`${d.label}: ${d.items.length} items, ${d.pages.length} pages, ${d.faq.length} FAQ pairs…`)
    const catalog = await search.engine.index(project.id) // created even when empty: searched, nothing found
    if (d.settings !== undefined) await catalog.updateSettings(d.settings)
    await inBatches(d.items, 100, (batch) => ingestDocuments(catalog, batch, search.catalogEmbedder))
    const knowledge = [...d.pages, ...d.faq.map((f) => ({ id: f.id, question: f.question, answer: f.answer, ...(f.url === undefined ? {} : { url: f.url }) }))]
    if (knowledge.length > 0) {
      const index = await search.engine.knowledge(project.id)
      await inBatches(knowledge, 4, (batch) => ingestKnowledge(index, batch, search.embedder))
    }
    setupSeconds[d.label] = Math.round((performance.now() - t0) / 100) / 10
    log(`${d.label}: ready in ${setupSeconds[d.label]} s`)
  }

  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })
  const chat = await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, historyTurns: 6, search: { url: searchUrl, serviceToken: TOKEN, timeoutMs: 10_000 } })
  defer(() => chat.close())

  const errors: string[] = []
  /** A reply; an answer other than 200 is kept as an empty reply (and listed), so one error does not end the run. */
  const send = async (key: string, message: string, consumer: string, chatId?: string): Promise<Answer> => {
    if (stopping()) throw new Error('interrupted')
    const payload = { user_message: message, consumer_id: consumer, ...(chatId === undefined ? {} : { chat_id: chatId }) }
    const res = await chat.inject({ method: 'POST', url: '/newUserMessage', headers: { authorization: `Bearer ${key}` }, payload })
    if (res.statusCode === 200) return res.json()
    errors.push(`${JSON.stringify(message)}: status ${res.statusCode} ${short(res.body, 300)}`)
    return { assistant_response: `(status ${res.statusCode})`, chat_id: chatId ?? '', classification: '', citations: [], handoff: false }
  }

  const features = FEATURES === undefined ? undefined : evidenceFeatures(chat.assistant, FEATURES)
  const observations: Observation[] = []
  const started = performance.now()
  for (const d of datasets) {
    const key = keys.get(d)!
    const itemById = new Map(d.items.map((i) => [i.id, i]))
    const turns = d.conversations.reduce((n, c) => n + c.turns.length, 0)
    log(`${d.label}: ${d.questions.length} questions, ${d.requests.length} requests, ${d.conversations.length} conversations (${turns} turns)…`)
    for (const q of d.questions) {
      observations.push(judgeQuestion(d, splitOf(d, q), q, await send(key, q.say, `eval-${d.name}-q-${q.id}`)))
      if (features !== undefined && splitOf(d, q) === 'dev' && q.category !== 'action') await features.question(projects.get(d)!, d.label, q)
      if (EXPLAIN && splitOf(d, q) === 'dev') await explainEvidence(chat.assistant, projects.get(d)!, q.say)
    }
    for (const r of d.requests) {
      observations.push(judgeRequest(d, splitOf(d, r), r, await send(key, r.say, `eval-${d.name}-r-${r.id}`)))
      if (features !== undefined && splitOf(d, r) === 'dev') await features.request(projects.get(d)!, d.label, r)
      if (EXPLAIN && splitOf(d, r) === 'dev') await explainEvidence(chat.assistant, projects.get(d)!, r.say)
    }
    for (const conv of d.conversations) {
      const answers: Answer[] = []
      let chatId: string | undefined
      for (const [n, turn] of conv.turns.entries()) {
        // The turns before, as the assistant reads them (EVAL_EXPLAIN of a turn that leans on them).
        const history = conv.turns.slice(0, n).flatMap((t, i): Message[] => [
          { msg_id: `u${i}`, role: 'user', content: t.say, timestamp: new Date(0).toISOString() },
          { msg_id: `a${i}`, role: 'assistant', content: answers[i]!.assistant_response, timestamp: new Date(0).toISOString(), citations: answers[i]!.citations }
        ])
        if (EXPLAIN && splitOf(d, conv) === 'dev') await explainEvidence(chat.assistant, projects.get(d)!, turn.say, history)
        const a = await send(key, turn.say, `eval-${d.name}-c-${conv.id}`, chatId)
        chatId = a.chat_id === '' ? undefined : a.chat_id
        answers.push(a)
        observations.push(judgeTurn(d, splitOf(d, conv), conv, n, answers, itemById))
      }
    }
  }
  const msPerMessage = observations.length === 0 ? 0 : (performance.now() - started) / observations.length

  const bySplit = (list: Observation[]) => ({ dev: summarise(list.filter((o) => o.split === 'dev')), heldout: summarise(list.filter((o) => o.split === 'heldout')) })
  const overall = bySplit(observations)
  const perDataset = datasets.map((d) => ({ d, s: bySplit(observations.filter((o) => o.dataset === d.label)) }))

  // The table.
  const counts = (d: typeof datasets[number]) => [
    d.questions.length > 0 ? `${d.questions.length} questions` : '',
    d.requests.length > 0 ? `${d.requests.length} requests` : '',
    d.conversations.length > 0 ? `${d.conversations.length} conversations` : ''
  ].filter((x) => x !== '').join(', ')
  console.log(`Assistant evaluation (EVAL_SPLIT=${SPLIT}): ${datasets.map((d) => `${d.label}${d.heldout ? ' [held out]' : ''} (${counts(d)})`).join('; ')}`)
  console.log(`${overall.dev.messages} dev and ${overall.heldout.messages} held-out messages`)
  const W = [24, 24, 24]
  console.log(`${'figure'.padEnd(W[0]!)}${'dev'.padEnd(W[1]!)}${'held-out'.padEnd(W[2]!)}target`)
  const categories = [...new Set([...Object.keys(overall.dev.conversationCategories), ...Object.keys(overall.heldout.conversationCategories)])].sort()
  for (const row of ROWS) {
    console.log(`${row.label.padEnd(W[0]!)}${cell(overall.dev, row.key).padEnd(W[1]!)}${cell(overall.heldout, row.key).padEnd(W[2]!)}${target(row)}`)
    if (row.key === 'conversationChecks') {
      for (const category of categories) {
        const c = (s: Summary) => { const r = s.conversationCategories[category]; return r === undefined ? '—' : `${(r.passed / r.of).toFixed(3)} (${r.passed}/${r.of})` }
        console.log(`${`  ${category}`.padEnd(W[0]!)}${c(overall.dev).padEnd(W[1]!)}${c(overall.heldout).padEnd(W[2]!)}`)
      }
    }
  }

  // One line per dataset: its figures that measured anything, dev | held-out.
  console.log('per dataset (dev | held-out):')
  for (const { d, s } of perDataset) {
    const parts = ROWS.filter((row) => row.key !== 'problemAnswered' || d.kind === 'help').filter((row) => figure(s.dev, row.key).of + figure(s.heldout, row.key).of > 0)
      .map((row) => `${row.label.trim()} ${cell(s.dev, row.key)} | ${cell(s.heldout, row.key)}`)
    console.log(`  ${d.label}${d.heldout ? ' [held out]' : ''} (${d.items.length} items, ${d.pages.length} pages, ${d.faq.length} FAQ; set up in ${setupSeconds[d.label]} s): ${parts.join('; ')}`)
  }
  console.log(`${msPerMessage.toFixed(0)} ms per message; ${((performance.now() - began) / 1000).toFixed(0)} s in all`)
  const stats = chat.assistant.stats
  if (stats.retrievalFailures + stats.knowledgeFailures > 0) console.log(`warning: ${stats.retrievalFailures} catalog and ${stats.knowledgeFailures} knowledge retrieval failures during the run`)
  if (errors.length > 0) console.log(`warning: ${errors.length} messages were not answered 200:\n  ${errors.slice(0, 20).join('\n  ')}`)

  // Failures: dev entries listed; held-out ones only counted unless EVAL_SHOW_HELDOUT=1.
  const shown = (o: Observation) => o.split === 'dev' || SHOW_HELDOUT
  const describe = (o: Observation, checks: string) => {
    const what = o.kind === 'turn' ? `${o.id} turn ${o.turn ?? 0}` : o.id
    const cites = o.answer.citations.map((c) => c.reference).join(', ')
    return `  [${o.dataset} ${o.kind === 'request' ? 'request' : o.category}${o.split === 'heldout' ? ', held-out' : ''}] ${what} ${JSON.stringify(o.say)}: ${checks}\n      → ${JSON.stringify(short(o.answer.assistant_response, VERBOSE ? 2000 : 220))}${cites === '' ? '' : ` [${cites}]`} (${o.answer.classification}${o.answer.handoff ? ', handoff' : ''})`
  }
  const promised = observations.filter((o) => o.promises.length > 0)
  const listedPromises = promised.filter(shown)
  if (listedPromises.length > 0) console.log(`false promises (${listedPromises.length}):\n${listedPromises.map((o) => describe(o, `"${o.promises.join('", "')}"`)).join('\n')}`)
  if (promised.length > listedPromises.length) console.log(`false promises in held-out replies: ${promised.length - listedPromises.length} (not listed; EVAL_SHOW_HELDOUT=1 lists them)`)
  const failing = (o: Observation) => o.checks.some((c) => !c.ok)
  const listed = observations.filter((o) => shown(o) && (VERBOSE || failing(o)))
  const explain = (o: Observation) => VERBOSE
    ? o.checks.map((c) => `${c.ok ? 'ok' : 'FAIL'} ${c.name}${c.ok ? '' : ` (${c.detail ?? ''})`}`).join('; ')
    : o.checks.filter((c) => !c.ok).map((c) => c.detail ?? c.name).join('; ')
  if (listed.length > 0) console.log(`${VERBOSE ? 'every check' : 'failed checks'} (${listed.length} messages):\n${listed.map((o) => describe(o, explain(o))).join('\n')}`)
  const hidden = observations.filter((o) => !shown(o) && failing(o))
  if (hidden.length > 0) console.log(`held-out: ${hidden.length} messages failing ${hidden.reduce((n, o) => n + o.checks.filter((c) => !c.ok).length, 0)} checks (not listed: tuning must not look at held-out replies; EVAL_SHOW_HELDOUT=1 lists them)`)

  /** A summary's figures as {value, passed, of}; `measured`: only those measured on something. */
  const json = (s: Summary, measured = false) => ({
    ...Object.fromEntries(ROWS.map((row) => [row.key, figure(s, row.key)] as const).filter(([, f]) => !measured || f.of > 0)
      .map(([key, f]) => [key, { value: f.value === null ? null : Math.round(f.value * 1000) / 1000, passed: f.passed, of: f.of }])),
    conversationCategories: s.conversationCategories,
    handoff: s.handoff,
    messages: s.messages
  })
  console.log(JSON.stringify({
    evaluation: 'assistant',
    split: SPLIT,
    datasets: datasets.map((d) => ({ label: d.label, heldout: d.heldout, items: d.items.length, pages: d.pages.length, faq: d.faq.length, questions: d.questions.length, requests: d.requests.length, conversations: d.conversations.length, setupSeconds: setupSeconds[d.label] })),
    dev: json(overall.dev),
    heldout: json(overall.heldout),
    perDataset: Object.fromEntries(perDataset.map(({ d, s }) => [d.label, { dev: json(s.dev, true), heldout: json(s.heldout, true) }])),
    targets: TARGETS,
    errors: errors.length,
    msPerMessage: Math.round(msPerMessage),
    seconds: Math.round((performance.now() - began) / 1000)
  }))
} catch (err) {
  // Interrupted (Ctrl-C, deadline): the handler cleans up and exits; what failed since is its doing.
  if (stopping()) await new Promise(() => {})
  log(`cannot run: ${err instanceof DatasetError ? err.message : err instanceof Error ? err.stack ?? err.message : String(err)}`)
  process.exitCode = 1
} finally {
  await cleanup()
}
