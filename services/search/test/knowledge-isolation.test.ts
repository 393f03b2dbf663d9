import t from 'tap'
import { searchHarness, send } from './helpers.js'
import { faqs, pages } from './fixtures/knowledge.js'

// Every knowledge route, called with another project's credential: that project's documents are
// 404 exactly like missing ones, and never in its lists or hits (ARCHITECTURE.md decision 9).

t.test('a project never sees another project\'s knowledge', async (t) => {
  const h = await searchHarness(t, true)
  const shop = await h.tenant('shop')
  const other = await h.tenant('other')
  t.equal((await send(h.app, shop.key, 'POST', '/knowledge/documents', [...pages, ...faqs])).statusCode, 200)

  t.test('GET /knowledge/documents: none of them listed', async (t) => {
    const list = (await send(h.app, other.key, 'GET', '/knowledge/documents')).json()
    t.same([list.results, list.total], [[], 0])
    t.equal((await send(h.app, other.key, 'GET', '/knowledge/documents?kind=faq')).json().total, 0)
  })

  t.test('GET and DELETE /knowledge/documents/:id: 404 as for a missing document, and nothing deleted', async (t) => {
    for (const id of ['shipping', 'faq-gift', '42']) {
      const read = await send(h.app, other.key, 'GET', `/knowledge/documents/${id}`)
      t.equal(read.statusCode, 404, `GET ${id}`)
      t.equal(read.json().code, 'document_not_found')
      const removed = await send(h.app, other.key, 'DELETE', `/knowledge/documents/${id}`)
      t.equal(removed.statusCode, 404, `DELETE ${id}`)
      t.equal(removed.json().code, 'document_not_found')
    }
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 6, 'all still there for their owner')
  })

  t.test('POST /knowledge/search: never another project\'s chunks, in either mode', async (t) => {
    for (const body of [{ query: 'shipping delivery', search_type: 'keyword' }, { query: 'how long does delivery take' }, { query: 'gift wrapping', semantic_ratio: 1 }]) {
      const res = await send(h.app, other.key, 'POST', '/knowledge/search', body)
      t.equal(res.statusCode, 200)
      t.same(res.json().hits, [], JSON.stringify(body))
    }
  })

  t.test('POST /knowledge/documents: the same id in two projects is two documents', async (t) => {
    const mine = { id: 'shipping', title: 'Livraison', content: '# Livraison\n\nNous livrons en Belgique seulement, par coursier zeppelin.' }
    t.same((await send(h.app, other.key, 'POST', '/knowledge/documents', [mine])).json(), { received: 1, indexed: 1, unchanged: 0, total: 1 }, 'counted in its own project')
    t.equal((await send(h.app, other.key, 'GET', '/knowledge/documents/shipping')).json().title, 'Livraison')
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/shipping')).json().title, 'Shipping', 'the first project\'s is untouched')
    const theirs = (await send(h.app, shop.key, 'POST', '/knowledge/search', { query: 'zeppelin coursier', semantic_ratio: 1 })).json().hits as Array<{ text: string }>
    t.notOk(theirs.some((hit) => /zeppelin/.test(hit.text)), 'the other project\'s chunk is not in the first one\'s hits')
    const own = (await send(h.app, other.key, 'POST', '/knowledge/search', { query: 'zeppelin' })).json().hits
    t.same(own.map((hit: { document_id: string, title: string }) => [hit.document_id, hit.title]), [['shipping', 'Livraison']])
    t.same((await send(h.app, other.key, 'DELETE', '/knowledge/documents/shipping')).json(), { id: 'shipping', deleted: true })
    t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents/shipping')).statusCode, 200, 'deleting its own leaves the other\'s')
  })
})
