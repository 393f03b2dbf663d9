import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp as buildSearch, type SearchConfig } from '@chatsearch/search'
import { buildApp as buildChat, type ChatConfig } from '@chatsearch/chat'
import { TOKEN, type Harness } from '../helpers.js'

interface TestLike { teardown: (fn: () => unknown) => void }

/**
 * Real search and chat services on the test's database, listening on ports, as the console meets them.
 * Both run a webhook worker on that one queue, and either may send any delivery: they get the same
 * webhook settings (chat's, when given), as an operator gives both services the same WEBHOOK_*.
 */
export async function services (t: TestLike, h: Harness, extra: Partial<SearchConfig> = {}, chatExtra: Partial<ChatConfig> = {}): Promise<{ searchUrl: string, chatUrl: string, search: FastifyInstance, chat: FastifyInstance }> {
  const webhooks = chatExtra.webhooks ?? extra.webhooks
  const dataDir = await mkdtemp(join(tmpdir(), 'console-search-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const search = await buildSearch({
    databaseUrl: h.databaseUrl, dataDir, embeddings: false, readers: 0, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN, ...extra, ...(webhooks === undefined ? {} : { webhooks })
  })
  t.teardown(() => search.close())
  const searchUrl = await search.listen({ host: '127.0.0.1', port: 0 })
  const chat = await buildChat({
    databaseUrl: h.databaseUrl,
    logLevel: 'silent',
    dbPoolSize: 4,
    authCacheTtlMs: 5000,
    historyTurns: 6,
    serviceToken: TOKEN,
    search: { url: searchUrl, serviceToken: TOKEN, timeoutMs: 5000 },
    ...chatExtra,
    ...(webhooks === undefined ? {} : { webhooks })
  })
  t.teardown(() => chat.close())
  const chatUrl = await chat.listen({ host: '127.0.0.1', port: 0 })
  return { searchUrl, chatUrl, search, chat }
}
