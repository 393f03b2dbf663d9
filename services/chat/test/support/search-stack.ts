import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp as buildSearch, demoCatalogFile, demoKnowledge, ingestDocuments, ingestKnowledge, type SearchConfig } from '@chatsearch/search'
import type { Harness, Tenant } from '../helpers.js'

/** The secret the chat apps of these tests present to the search service. */
export const TOKEN = 'test-service-token-' + 'x'.repeat(32)

export interface Item { id: string, title: string, price: number, category: string, brand: string }

interface TestLike { teardown: (fn: () => unknown) => void }

/**
 * The demo catalog's first items plus the ones the tests ask about, in a real search service
 * listening on a port; with `knowledge`, the demo shop's help pages and FAQs too.
 */
export async function searchStack (t: TestLike, h: Harness, shop: Tenant, extra: Partial<SearchConfig> = {}, opts: { knowledge?: boolean } = {}): Promise<{ url: string, items: Item[], app: FastifyInstance }> {
  const all = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as Item[]
  const asked = (i: Item) => /hiking boot|tent|espresso/i.test(i.title)
  const items = all.filter((item, n) => n < 60 || asked(item))
  const dataDir = await mkdtemp(join(tmpdir(), 'chat-assistant-'))
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const app = await buildSearch({
    databaseUrl: h.databaseUrl, dataDir, embeddings: true, readers: 1, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000, serviceToken: TOKEN, ...extra
  })
  t.teardown(() => app.close())
  await ingestDocuments(await app.engine.index(shop.projectId), items, app.catalogEmbedder)
  if (opts.knowledge === true) await ingestKnowledge(await app.engine.knowledge(shop.projectId), await demoKnowledge(), app.embedder)
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url, items, app }
}
