// `pnpm eval`: a measurement of the shop assistant, end to end (POST /newUserMessage on the chat app,
// which asks a real search service over HTTP: embedded engine, default embeddings, embedded PostgreSQL).
//
// Two projects:
//   A — the help corpus of eval/corpus (the Saleor Dashboard Manual, BSD-3-Clause, see corpus/SOURCE.md)
//       as knowledge pages, no catalog; asked the single questions of eval/corpus-questions.json.
//   B — the demo catalog and the demo shop's help pages and FAQs; holds the multi-turn
//       conversations of eval/conversations.json.
//
// corpus-questions.json: [{ id, category, say, sources?, facts? }]
//   category 'answerable'   — the corpus answers it: `sources` are the corpus documents (file names
//                             without .md) that do, `facts` short strings of their text a right answer holds.
//                             Expected: no handoff.
//   category 'unanswerable' — the corpus does not answer it. Expected: handoff, no knowledge/faq citation.
//   category 'action'       — an action on the shopper's own order/account, a complaint, a person asked
//                             for. Expected: handoff.
//
// conversations.json: [{ id, category, turns: [{ say, expect }] }], one chat per conversation. `expect`
// holds any of these checks, each of which must hold for the turn to pass (turn numbers count from 0):
//   handoff: boolean                   the reply's `handoff` flag is this
//   classification: string             the reply's classification is this
//   cites_catalog: boolean             the reply cites (true) / does not cite (false) a catalog item
//   cites_knowledge: boolean           the reply cites (true) / does not cite (false) a knowledge page or FAQ
//   cites_source: string[]             a knowledge/faq citation points at one of these documents
//                                      (page id: the part of the reference before '#'; FAQ: its id), and none elsewhere
//   contains_any: string[]             the reply contains one of these (case-insensitive)
//   cites_turn_item: [turn, n]         the reply cites the item cited n-th (from 0) in that turn's reply
//   contains_price_of_turn_item: [turn, n]   the reply holds that item's catalog price ("$12.34")
//   names_higher_rated: [turn, n, m]   of items n and m of that turn, the one the reply names last (its verdict)
//                                      is the one the catalog rates higher (a tie accepts either)
//   names_cheaper: [turn, n, m]        the same for the lower price
//   cites_none_of_turn: turn           no item cited in that turn is cited (a change of subject)
// A turn with any of the cites_turn_item … names_cheaper checks is a follow-up ("reference") turn.
//
// Figures (printed as a table, then one JSON line):
//   answered            answerable questions whose reply holds one of their facts and cites one of their sources
//   citationPrecision   of the knowledge/faq citations of answerable questions and of conversation turns
//                       with cites_source, the share pointing at an expected source
//   handoffPrecision/Recall  over every question and every conversation turn labelled with a handoff
//                       (questions: answerable false, unanswerable and action true; turns: expect.handoff)
//   falsePromises       replies matching promisedActions() (src/assistant/promises.ts), over all replies
//   followUpsResolved   reference turns whose every check holds
//   per category        how many questions / conversations pass all of their checks
// It is a measurement: it exits 0 whatever the figures; non-zero only when it cannot run.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey, createProject } from '@chatsearch/auth'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/shell/testing'
import { buildApp as buildSearch, demoCatalogFile, demoKnowledge, ingestDocuments, ingestKnowledge } from '@chatsearch/search'
import { buildApp } from '../src/app.js'
import { promisedActions } from '../src/assistant/promises.js'

type Category = 'answerable' | 'unanswerable' | 'action'
interface Question { id: string, category: Category, say: string, sources?: string[], facts?: string[] }
interface Expect {
  handoff?: boolean
  classification?: string
  cites_catalog?: boolean
  cites_knowledge?: boolean
  cites_source?: string[]
  contains_any?: string[]
  cites_turn_item?: [number, number]
  contains_price_of_turn_item?: [number, number]
  names_higher_rated?: [number, number, number]
  names_cheaper?: [number, number, number]
  cites_none_of_turn?: number
}
interface Conversation { id: string, category: string, turns: Array<{ say: string, expect: Expect }> }
interface Citation { source: 'catalog' | 'knowledge' | 'faq', reference: string, confidence: number, title?: string, url?: string }
interface Answer { assistant_response: string, chat_id: string, classification: string, citations: Citation[], handoff: boolean }
interface Item { id: string, title: string, price: number, rating: number }

const TARGETS = { answered: 0.85, citationPrecision: 0.9, handoffRecall: 0.9, falsePromises: 0 }
const TOKEN = 'eval-service-token-' + 'e'.repeat(32)
const DEADLINE_MS = Number(process.env.EVAL_DEADLINE_S ?? 300) * 1000
const VERBOSE = process.env.EVAL_VERBOSE === '1'

const began = performance.now()
const log = (line: string) => process.stderr.write(`[eval ${((performance.now() - began) / 1000).toFixed(0)} s] ${line}\n`)

const undo: Array<() => unknown> = []
let cleaning: Promise<void> | undefined
const cleanup = () => {
  cleaning ??= (async () => {
    for (const fn of undo.reverse()) {
      try { await fn() } catch (err) { log(`clean-up step failed: ${String(err)}`) }
    }
  })()
  return cleaning
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => { log(`${signal}: cleaning up`); cleanup().finally(() => process.exit(130)) })
}
setTimeout(() => { log(`deadline of ${DEADLINE_MS / 1000} s reached: cleaning up`); cleanup().finally(() => process.exit(1)) }, DEADLINE_MS).unref()

/** Embedding holds the event loop: done in small batches, so that Ctrl-C is seen within seconds. */
async function inBatches<T> (all: T[], size: number, fn: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < all.length; i += size) {
    if (cleaning !== undefined) throw new Error('interrupted')
    await fn(all.slice(i, i + size))
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const here = new URL('./', import.meta.url)
const readJson = async <T>(url: URL): Promise<T> => JSON.parse(await readFile(url, 'utf8')) as T

/** The corpus pages as knowledge documents: front matter (title, url) then Markdown. */
async function corpusPages (): Promise<Array<{ id: string, title: string, content: string, url: string }>> {
  const dir = new URL('corpus/', here)
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md') && f !== 'SOURCE.md').sort()
  return Promise.all(files.map(async (file) => {
    const text = await readFile(new URL(file, dir), 'utf8')
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(text)
    if (fm === null) throw new Error(`${file}: no front matter`)
    const meta = Object.fromEntries(fm[1]!.split('\n').map((l) => /^(\w+):\s*(.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]))
    if (meta.title === undefined || meta.url === undefined) throw new Error(`${file}: front matter needs title and url`)
    return { id: file.slice(0, -3), title: meta.title, content: text.slice(fm[0].length).trim(), url: meta.url }
  }))
}

const norm = (s: string) => s.toLowerCase().replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/[_*`]/g, '').replace(/\s+/g, ' ')
const docOf = (c: Citation) => c.source === 'knowledge' ? c.reference.split('#')[0]! : c.reference
const knowledgeCitations = (a: Answer) => a.citations.filter((c) => c.source !== 'catalog')
const catalogCitations = (a: Answer) => a.citations.filter((c) => c.source === 'catalog')
const money = (value: number) => `$${value.toFixed(2)}`
const short = (s: string, n = 160) => { const t = s.replace(/\s+/g, ' '); return t.length > n ? `${t.slice(0, n)}…` : t }

try {
  const questions = await readJson<Question[]>(new URL('corpus-questions.json', here))
  const conversations = await readJson<Conversation[]>(new URL('conversations.json', here))
  const pages = await corpusPages()
  const pageIds = new Set(pages.map((p) => p.id))
  for (const q of questions) for (const s of q.sources ?? []) if (!pageIds.has(s)) throw new Error(`question ${q.id}: no corpus page ${s}`)
  const items = await readJson<Item[]>(demoCatalogFile)
  const itemById = new Map(items.map((i) => [String(i.id), i]))

  log('starting PostgreSQL…')
  const databaseUrl = await testDatabase({ teardown: (fn) => { undo.push(fn) } })
  const dataDir = await mkdtemp(join(tmpdir(), 'chat-eval-'))
  undo.push(() => rm(dataDir, { recursive: true, force: true }))
  const search = await buildSearch({ databaseUrl, dataDir, embeddings: true, readers: 1, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN })
  undo.push(() => search.close())
  const pool = createPool(databaseUrl, 2)
  undo.push(() => pool.end())
  const projectA = await createProject(pool, 'eval-corpus')
  const projectB = await createProject(pool, 'eval-demo-shop')
  const keyA = (await createKey(pool, projectA.id, 'chat', 'eval')).key
  const keyB = (await createKey(pool, projectB.id, 'chat', 'eval')).key

  let t0 = performance.now()
  log(`project A: embedding ${pages.length} corpus pages…`)
  await search.engine.index(projectA.id) // an empty catalog: searched, nothing found
  const corpusIndex = await search.engine.knowledge(projectA.id)
  await inBatches(pages, 4, (batch) => ingestKnowledge(corpusIndex, batch, search.embedder))
  const corpusSeconds = (performance.now() - t0) / 1000
  log(`project A: ${pages.length} pages in ${corpusSeconds.toFixed(1)} s`)
  t0 = performance.now()
  log(`project B: embedding the demo catalog (${items.length} items) and the demo knowledge…`)
  const catalogIndex = await search.engine.index(projectB.id)
  await inBatches(items, 100, (batch) => ingestDocuments(catalogIndex, batch, search.embedder))
  await ingestKnowledge(await search.engine.knowledge(projectB.id), await demoKnowledge(), search.embedder)
  log(`project B: ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })
  const chat = await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, historyTurns: 6, search: { url: searchUrl, serviceToken: TOKEN, timeoutMs: 10_000 } })
  undo.push(() => chat.close())

  const send = async (key: string, message: string, consumer: string, chatId?: string): Promise<Answer> => {
    const payload = { user_message: message, consumer_id: consumer, ...(chatId === undefined ? {} : { chat_id: chatId }) }
    const res = await chat.inject({ method: 'POST', url: '/newUserMessage', headers: { authorization: `Bearer ${key}` }, payload })
    if (res.statusCode !== 200) throw new Error(`${JSON.stringify(message)}: status ${res.statusCode} ${res.body}`)
    return res.json()
  }

  // Tallies over everything.
  let replies = 0
  const promises: string[] = []
  const handoff = { tp: 0, fp: 0, fn: 0, tn: 0 }
  const citations = { right: 0, all: 0 }
  const failures: string[] = []
  const perCategory = new Map<string, { n: number, passed: number }>()
  const count = (category: string, passed: boolean) => {
    const c = perCategory.get(category) ?? { n: 0, passed: 0 }
    c.n++
    if (passed) c.passed++
    perCategory.set(category, c)
  }
  const tallyHandoff = (expected: boolean, got: boolean) => {
    if (expected && got) handoff.tp++
    else if (expected) handoff.fn++
    else if (got) handoff.fp++
    else handoff.tn++
  }
  const tallyReply = (where: string, a: Answer) => {
    replies++
    const found = promisedActions(a.assistant_response)
    if (found.length > 0) promises.push(`${where}: "${found.join('", "')}" in ${JSON.stringify(short(a.assistant_response))}`)
  }

  log(`project A: ${questions.length} questions…`)
  const started = performance.now()
  let answerable = 0
  let answered = 0
  for (const q of questions) {
    const a = await send(keyA, q.say, `eval-q-${q.id}`)
    tallyReply(`question ${q.id}`, a)
    const cited = knowledgeCitations(a).map(docOf)
    const why: string[] = []
    if (q.category === 'answerable') {
      answerable++
      tallyHandoff(false, a.handoff)
      const sources = q.sources ?? []
      for (const d of cited) { citations.all++; if (sources.includes(d)) citations.right++ }
      const reply = norm(a.assistant_response)
      const hasFact = (q.facts ?? []).some((f) => reply.includes(norm(f)))
      const citesSource = cited.some((d) => sources.includes(d))
      if (hasFact && citesSource) answered++
      if (!hasFact) why.push('no expected fact')
      if (!citesSource) why.push(`cites [${cited.join(', ')}], expected [${sources.join(', ')}]`)
      if (a.handoff) why.push('handed off')
    } else {
      tallyHandoff(true, a.handoff)
      if (!a.handoff) why.push('not handed off')
      if (q.category === 'unanswerable' && cited.length > 0) why.push(`cites [${cited.join(', ')}]`)
    }
    count(`question: ${q.category}`, why.length === 0)
    if (why.length > 0 || VERBOSE) failures.push(`  [${q.category}] ${q.id} ${JSON.stringify(q.say)}: ${why.length === 0 ? 'ok' : why.join('; ')}\n      → ${JSON.stringify(short(a.assistant_response, VERBOSE ? 2000 : 220))}`)
  }

  log(`project B: ${conversations.length} conversations…`)
  let referenceTurns = 0
  let referencesResolved = 0
  let turns = 0
  for (const conv of conversations) {
    const answers: Answer[] = []
    let chatId: string | undefined
    let allPassed = true
    for (const [n, turn] of conv.turns.entries()) {
      const a = await send(keyB, turn.say, `eval-c-${conv.id}`, chatId)
      turns++
      chatId = a.chat_id
      answers.push(a)
      tallyReply(`conversation ${conv.id} turn ${n}`, a)
      const e = turn.expect
      const why: string[] = []
      const itemOf = ([t, i]: [number, number]) => catalogCitations(answers[t] ?? { citations: [] } as unknown as Answer)[i]
      const reply = norm(a.assistant_response)
      const cited = knowledgeCitations(a).map(docOf)
      const items = catalogCitations(a).map((c) => c.reference)
      if (e.handoff !== undefined) { tallyHandoff(e.handoff, a.handoff); if (a.handoff !== e.handoff) why.push(`handoff ${a.handoff}`) }
      if (e.classification !== undefined && a.classification !== e.classification) why.push(`classified ${a.classification}`)
      if (e.cites_catalog !== undefined && (items.length > 0) !== e.cites_catalog) why.push(`catalog citations: ${items.length}`)
      if (e.cites_knowledge !== undefined && (cited.length > 0) !== e.cites_knowledge) why.push(`knowledge citations: [${cited.join(', ')}]`)
      if (e.cites_source !== undefined) {
        for (const d of cited) { citations.all++; if (e.cites_source.includes(d)) citations.right++ }
        if (cited.length === 0 || cited.some((d) => !e.cites_source!.includes(d))) why.push(`cites [${cited.join(', ')}], expected [${e.cites_source.join(', ')}]`)
      }
      if (e.contains_any !== undefined && !e.contains_any.some((f) => reply.includes(norm(f)))) why.push(`none of ${JSON.stringify(e.contains_any)}`)
      const reference = e.cites_turn_item !== undefined || e.contains_price_of_turn_item !== undefined || e.names_higher_rated !== undefined || e.names_cheaper !== undefined
      if (e.cites_turn_item !== undefined) {
        const want = itemOf(e.cites_turn_item)
        if (want === undefined) why.push(`turn ${e.cites_turn_item[0]} cited no item ${e.cites_turn_item[1]}`)
        else if (!items.includes(want.reference)) why.push(`does not cite ${want.reference} (${want.title ?? ''}); cites [${items.join(', ')}]`)
      }
      if (e.contains_price_of_turn_item !== undefined) {
        const want = itemOf(e.contains_price_of_turn_item)
        const item = want === undefined ? undefined : itemById.get(want.reference)
        if (item === undefined) why.push(`turn ${e.contains_price_of_turn_item[0]} cited no item ${e.contains_price_of_turn_item[1]}`)
        else if (!reply.includes(money(item.price))) why.push(`no price ${money(item.price)}`)
      }
      for (const [key, better] of [['names_higher_rated', (x: Item, y: Item) => x.rating - y.rating], ['names_cheaper', (x: Item, y: Item) => y.price - x.price]] as const) {
        const spec = e[key]
        if (spec === undefined) continue
        const [t, i, j] = spec
        const x = itemOf([t, i])
        const y = itemOf([t, j])
        const xi = x === undefined ? undefined : itemById.get(x.reference)
        const yi = y === undefined ? undefined : itemById.get(y.reference)
        if (xi === undefined || yi === undefined) { why.push(`turn ${t} cited no items ${i} and ${j}`); continue }
        // A comparison may name both ("A is rated 3.9, B 4.7; B is better rated"): the one named last is the verdict.
        const d = better(xi, yi)
        const last = (x: Item) => reply.lastIndexOf(norm(x.title))
        const verdict = last(xi) > last(yi) ? xi : last(yi) > last(xi) ? yi : undefined
        const ok = verdict !== undefined && (d === 0 || better(verdict, verdict === xi ? yi : xi) > 0)
        if (!ok) why.push(`${key}: expected ${JSON.stringify(d >= 0 ? xi.title : yi.title)} named last`)
      }
      if (e.cites_none_of_turn !== undefined) {
        const before = new Set(catalogCitations(answers[e.cites_none_of_turn] ?? { citations: [] } as unknown as Answer).map((c) => c.reference))
        const again = items.filter((id) => before.has(id))
        if (again.length > 0) why.push(`cites [${again.join(', ')}] of turn ${e.cites_none_of_turn} again`)
      }
      if (reference) { referenceTurns++; if (why.length === 0) referencesResolved++ }
      if (why.length > 0) allPassed = false
      if (why.length > 0 || VERBOSE) failures.push(`  [${conv.category}] ${conv.id} turn ${n} ${JSON.stringify(turn.say)}: ${why.length === 0 ? 'ok' : why.join('; ')}\n      → ${JSON.stringify(short(a.assistant_response, VERBOSE ? 2000 : 220))} [${a.citations.map((c) => c.reference).join(', ')}]`)
    }
    count(`conversation: ${conv.category}`, allPassed)
  }
  const perTurnMs = (performance.now() - started) / (questions.length + turns)

  const ratio = (a: number, b: number) => b === 0 ? 0 : a / b
  const figures = {
    answered: ratio(answered, answerable),
    citationPrecision: ratio(citations.right, citations.all),
    handoffPrecision: ratio(handoff.tp, handoff.tp + handoff.fp),
    handoffRecall: ratio(handoff.tp, handoff.tp + handoff.fn),
    falsePromises: promises.length,
    followUpsResolved: ratio(referencesResolved, referenceTurns)
  }
  const verdict = (ok: boolean) => ok ? 'PASS' : 'MISS'
  const f3 = (x: number) => x.toFixed(3)
  console.log(`Assistant evaluation — project A: ${pages.length} help pages (Saleor Dashboard Manual, BSD-3-Clause), ${questions.length} questions; project B: demo catalog (${items.length} items) + demo knowledge, ${conversations.length} conversations (${turns} turns)`)
  console.log('figure                 value    target     result   over')
  console.log(`answered w/ facts      ${f3(figures.answered)}    >= ${TARGETS.answered}    ${verdict(figures.answered >= TARGETS.answered)}     ${answered}/${answerable} answerable questions`)
  console.log(`citation precision     ${f3(figures.citationPrecision)}    >= ${TARGETS.citationPrecision}     ${verdict(figures.citationPrecision >= TARGETS.citationPrecision)}     ${citations.right}/${citations.all} knowledge/faq citations`)
  console.log(`handoff precision      ${f3(figures.handoffPrecision)}                       ${handoff.tp}/${handoff.tp + handoff.fp} handoffs`)
  console.log(`handoff recall         ${f3(figures.handoffRecall)}    >= ${TARGETS.handoffRecall}     ${verdict(figures.handoffRecall >= TARGETS.handoffRecall)}     ${handoff.tp}/${handoff.tp + handoff.fn} labelled handoff (${handoff.tn + handoff.fp} labelled not)`)
  console.log(`false promises         ${String(figures.falsePromises).padEnd(5)}    = ${TARGETS.falsePromises}        ${verdict(figures.falsePromises === TARGETS.falsePromises)}     ${replies} replies`)
  console.log(`follow-ups resolved    ${f3(figures.followUpsResolved)}                       ${referencesResolved}/${referenceTurns} reference turns`)
  console.log('per category (passing all checks):')
  for (const [category, c] of perCategory) console.log(`  ${category.padEnd(36)} ${c.passed}/${c.n}`)
  console.log(`corpus embedded in ${corpusSeconds.toFixed(1)} s; ${perTurnMs.toFixed(0)} ms per turn; ${((performance.now() - began) / 1000).toFixed(0)} s in all`)
  const stats = chat.assistant.stats
  if (stats.retrievalFailures + stats.knowledgeFailures > 0) console.log(`warning: ${stats.retrievalFailures} catalog and ${stats.knowledgeFailures} knowledge retrieval failures during the run`)
  if (promises.length > 0) console.log(`false promises (${promises.length}):\n  ${promises.join('\n  ')}`)
  if (failures.length > 0) console.log(`${VERBOSE ? 'every check' : 'failed checks'} (${failures.length}):\n${failures.join('\n')}`)
  console.log(JSON.stringify({
    evaluation: 'assistant',
    questions: questions.length,
    conversations: conversations.length,
    turns,
    ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000])),
    targets: TARGETS,
    categories: Object.fromEntries(perCategory),
    msPerTurn: Math.round(perTurnMs)
  }))
} catch (err) {
  // Interrupted (Ctrl-C, deadline): the handler cleans up and exits; what failed since is its doing.
  if (cleaning !== undefined) await new Promise(() => {})
  log(`cannot run: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  process.exitCode = 1
} finally {
  await cleanup()
}
