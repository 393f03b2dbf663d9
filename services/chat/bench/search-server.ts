// The search service the chat service retrieves from during the turn runs, in a process of its own
// (its embedding and SQLite work must not share the chat service's event loop): the embedded engine
// with USE-lite embeddings, holding the demo catalog and the demo knowledge for one project.
// Started by chat.ts once the database is seeded, with BENCH_DATABASE_URL, BENCH_PROJECT_ID,
// BENCH_SEARCH_PORT and BENCH_SERVICE_TOKEN set; reports over IPC when it listens.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp, demoCatalogFile, demoKnowledge, ingestDocuments, ingestKnowledge } from '@chatsearch/search'
import { toParent } from '@chatsearch/testkit/bench-child'

export type SearchServerMessage =
  | { type: 'ready', items: number, startMs: number }
  | { type: 'failed', error: string }

const send = (message: SearchServerMessage) => toParent(message)

const env = (name: string) => {
  const value = process.env[name]
  if (value === undefined || value === '') throw new Error(`${name} is not set`)
  return value
}

let app: FastifyInstance | undefined
let dataDir: string | undefined
let closing = false
async function close () {
  if (closing) return
  closing = true
  setTimeout(() => process.exit(1), 3000).unref()
  await app?.close().catch(() => {})
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', close)
process.on('SIGINT', close)
process.on('disconnect', close)

try {
  const started = performance.now()
  const projectId = env('BENCH_PROJECT_ID')
  dataDir = await mkdtemp(join(tmpdir(), 'chat-bench-search-'))
  app = await buildApp({
    databaseUrl: env('BENCH_DATABASE_URL'),
    dataDir,
    embeddings: true,
    readers: 1,
    logLevel: 'silent',
    dbPoolSize: 4,
    authCacheTtlMs: 5000,
    serviceToken: env('BENCH_SERVICE_TOKEN')
  })
  const items = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as unknown[]
  await ingestDocuments(await app.engine.index(projectId), items, app.catalogEmbedder)
  await ingestKnowledge(await app.engine.knowledge(projectId), await demoKnowledge(), app.embedder)
  await app.listen({ host: '127.0.0.1', port: Number(env('BENCH_SEARCH_PORT')) })
  await send({ type: 'ready', items: items.length, startMs: performance.now() - started })
} catch (err) {
  await send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  await close()
}
