import t from 'tap'
import { harness } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { searchRetriever } from '../src/assistant/retriever.js'

t.test('the retriever reads a help page whole, in order, from the real search service', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop, {}, { knowledge: true })
  const retriever = searchRetriever({ searchUrl: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 })

  const found = await retriever.knowledge(shop.projectId, 'how long do refunds take?')
  const hit = found.passages.find((p) => p.kind === 'page')
  if (hit === undefined) return t.fail(`no page passage found: ${JSON.stringify(found)}`)
  const page = await retriever.page(shop.projectId, hit.documentId)
  t.equal(page.failure, undefined)
  t.ok(page.passages.length >= 1)
  t.ok(page.passages.every((p) => p.documentId === hit.documentId && p.title === hit.title && p.kind === 'page'), 'every chunk of that page, and of no other')
  t.same(page.passages.map((p) => p.chunkId), page.passages.map((_, i) => String(i)), 'in order')
  const same = page.passages.find((p) => p.chunkId === hit.chunkId)
  t.match(same, { section: hit.section, text: hit.text }, 'the chunk the search found, as it found it')

  t.same(await retriever.page(shop.projectId, 'no such page/../x?y'), { passages: [] }, 'a page that is gone is no page, not a failure')
  const other = await h.tenant()
  t.same(await retriever.page(other.projectId, hit.documentId), { passages: [] }, 'another project\'s page is not read')

  // Kept a short while: the page deleted meanwhile is still read from what was kept, unless the
  // chunk the search found reads otherwise than the kept one (the page changed): then it is read again.
  const removed = await fetch(`${stack.url}/knowledge/documents/${encodeURIComponent(hit.documentId)}`, {
    method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }
  })
  t.ok(removed.ok, `deleted (${removed.status})`)
  t.same((await retriever.page(shop.projectId, hit.documentId)).passages, page.passages, 'kept')
  t.same((await retriever.page(shop.projectId, hit.documentId, {}, hit)).passages, page.passages, 'kept: the found chunk reads as the kept one')
  t.same(await retriever.page(shop.projectId, hit.documentId, {}, { ...hit, text: `${hit.text} (edited)` }), { passages: [] }, 'read again when the found chunk was edited: gone now')

  const down = searchRetriever({ searchUrl: 'http://127.0.0.1:9', serviceToken: TOKEN, timeoutMs: 2000 })
  const failed = await down.page(shop.projectId, hit.documentId)
  t.same(failed.passages, [])
  t.type(failed.failure, 'string', 'a search service that cannot be reached is a failure the assistant logs')
})
