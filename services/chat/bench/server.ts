// The servers under test, in a process of their own so the load generator does not share their
// event loop: the chat app on one port and, for a baseline, a bare Fastify app on another.
// Started by chat.ts with BENCH_DATABASE_URL set, and BENCH_SEARCH_URL (with BENCH_SERVICE_TOKEN)
// for the search service the turns retrieve from; reports its ports over IPC.
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.js'
import { toParent, listeningPort } from '@chatsearch/testkit/bench-child'

export type ServerMessage =
  | { type: 'ready', chatPort: number, barePort: number, startMs: number }
  | { type: 'failed', error: string }

const send = (message: ServerMessage) => toParent(message)

const apps: FastifyInstance[] = []
let closing = false
async function close () {
  if (closing) return
  closing = true
  // Closing waits for every pool connection to come back; one never returned must not keep us up.
  setTimeout(() => process.exit(1), 3000).unref()
  await Promise.allSettled(apps.map((app) => app.close()))
  process.exit(0)
}
process.on('SIGTERM', close)
process.on('SIGINT', close)
// The benchmark went away without stopping us: do not linger.
process.on('disconnect', close)

try {
  const databaseUrl = process.env.BENCH_DATABASE_URL
  if (databaseUrl === undefined) throw new Error('BENCH_DATABASE_URL is not set')
  const started = performance.now()
  // The real classifier: buildApp loads it when no parts are given.
  const dbPoolSize = Number(process.env.BENCH_DB_POOL_SIZE ?? 20)
  const searchUrl = process.env.BENCH_SEARCH_URL
  const search = searchUrl === undefined ? {} : { search: { url: searchUrl, serviceToken: process.env.BENCH_SERVICE_TOKEN ?? '', timeoutMs: 10_000 } }
  const chat = await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize, authCacheTtlMs: 5000, historyTurns: 6, ...search })
  apps.push(chat)
  await chat.listen({ host: '127.0.0.1', port: 0 })
  const startMs = performance.now() - started

  const bare = Fastify({ logger: false })
  apps.push(bare)
  bare.get('/bare', async () => ({ hello: 'world', ok: true }))
  await bare.listen({ host: '127.0.0.1', port: 0 })

  await send({ type: 'ready', chatPort: listeningPort(chat), barePort: listeningPort(bare), startMs })
} catch (err) {
  await send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
  await close()
}
