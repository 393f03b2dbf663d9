// `pnpm bench assistant`: the assistant's quality on a labelled set of shopper messages
// (services/search/catalog/assistant-set.json: message, the best demo items to cite (`expected`, at most
// five), every item that meets the message (`acceptable`), the expected class). Precision counts a
// citation right when the item is acceptable; recall counts the expected items found. The whole path runs for real: the chat app asks a search service (embedded
// engine, USE-lite embeddings) holding the demo catalog over HTTP, with the grounded responder.
// Prints citation precision@3 and recall@3, groundedness and classification accuracy, then one line of JSON.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey, createProject } from '@chatsearch/auth'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { buildApp as buildSearch, demoCatalogFile, ingestDocuments } from '@chatsearch/search'
import { assistantSetFile } from '@chatsearch/search/catalog'
import { buildApp } from '../src/app.js'

interface Case { message: string, expected: string[], acceptable: string[], classification: string }
interface Item { id: string, title: string }
interface Answer { assistant_response: string, classification: string, citations: Array<{ reference: string }> }

const targets = { precisionAt3: 0.8, groundedness: 1 }
const TOKEN = 'bench-service-token-' + 'b'.repeat(32)
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)

const cleanup: Array<() => unknown> = []
const teardown = { teardown: (fn: () => unknown) => { cleanup.push(fn) } }
try {
  const cases = JSON.parse(await readFile(assistantSetFile, 'utf8')) as Case[]
  const items = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as Item[]
  const databaseUrl = await testDatabase(teardown)
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-assistant-'))
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }))

  const search = await buildSearch({ databaseUrl, dataDir, embeddings: true, readers: 1, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN })
  cleanup.push(() => search.close())
  const pool = createPool(databaseUrl, 2)
  cleanup.push(() => pool.end())
  const project = await createProject(pool, 'bench')
  const key = (await createKey(pool, project.id, 'chat', 'bench')).key
  log(`indexing ${items.length} demo items with embeddings…`)
  await ingestDocuments(await search.engine.index(project.id), items, search.catalogEmbedder)
  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })
  const chat = await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, historyTurns: 6, search: { url: searchUrl, serviceToken: TOKEN, timeoutMs: 10_000 } })
  cleanup.push(() => chat.close())

  let precision = 0
  let strictPrecision = 0
  let precisionCases = 0
  let recall = 0
  let grounded = 0
  let classified = 0
  const misses: string[] = []
  const started = performance.now()
  for (const [n, c] of cases.entries()) {
    const res = await chat.inject({ method: 'POST', url: '/newUserMessage', headers: { authorization: `Bearer ${key}` }, payload: { user_message: c.message, consumer_id: `bench-${n}` } })
    if (res.statusCode !== 200) throw new Error(`${c.message}: status ${res.statusCode} ${res.body}`)
    const answer = res.json() as Answer
    const cited = answer.citations.slice(0, 3).map((x) => x.reference)
    const hits = cited.filter((id) => c.expected.includes(id)).length
    const right = cited.filter((id) => c.acceptable.includes(id)).length
    if (cited.length > 0) { precision += right / cited.length; strictPrecision += hits / cited.length; precisionCases++ }
    recall += hits / Math.min(3, c.expected.length)
    // Grounded: every catalog title the reply names is among its citations.
    const reply = answer.assistant_response.toLowerCase()
    const named = items.filter((i) => reply.includes(i.title.toLowerCase())).map((i) => i.id)
    if (named.every((id) => answer.citations.some((x) => x.reference === id))) grounded++
    if (answer.classification === c.classification) classified++
    if (right < cited.length || cited.length === 0) misses.push(`  ${JSON.stringify(c.message)}: cited [${cited.join(', ')}], expected [${c.expected.join(', ')}]${c.acceptable.length > c.expected.length ? ` or ${c.acceptable.length - c.expected.length} more` : ''}`)
  }
  const perTurnMs = (performance.now() - started) / cases.length
  const figures = {
    precisionAt3: precisionCases === 0 ? 0 : precision / precisionCases,
    precisionAt3Best5: precisionCases === 0 ? 0 : strictPrecision / precisionCases,
    recallAt3: recall / cases.length,
    answeredWithCitations: precisionCases / cases.length,
    groundedness: grounded / cases.length,
    classificationAccuracy: classified / cases.length
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`
  console.log(`Assistant quality — ${cases.length} labelled shopper messages over the demo catalog (${items.length} items), grounded responder, hybrid retrieval`)
  console.log(`citation precision@3     ${figures.precisionAt3.toFixed(3)}   (over the ${precisionCases} replies that cite something; target >= ${targets.precisionAt3}: ${figures.precisionAt3 >= targets.precisionAt3 ? 'PASS' : 'FAIL'})`)
  console.log(`  counting only the 5 best ${figures.precisionAt3Best5.toFixed(3)}   (a right item beyond the five best counted wrong, as before the acceptable lists)`)
  console.log(`citation recall@3        ${figures.recallAt3.toFixed(3)}   (of the min(3, expected) best items)`)
  console.log(`replies with citations   ${pct(figures.answeredWithCitations)}`)
  console.log(`groundedness             ${pct(figures.groundedness)}   (every catalog title named is cited; target 100%: ${figures.groundedness >= targets.groundedness ? 'PASS' : 'FAIL'})`)
  console.log(`classification accuracy  ${pct(figures.classificationAccuracy)}`)
  console.log(`mean time per turn       ${perTurnMs.toFixed(1)} ms (classify + retrieve over HTTP + reply + store)`)
  if (misses.length > 0) console.log(`replies citing something not acceptable, or nothing (${misses.length}):\n${misses.join('\n')}`)
  console.log(JSON.stringify({ benchmark: 'assistant', messages: cases.length, items: items.length, ...figures, msPerTurn: Math.round(perTurnMs * 10) / 10 }))
} finally {
  for (const fn of cleanup.reverse()) await fn()
}
