import t from 'tap'
import { demoKnowledge } from '../src/demo-knowledge.js'
import { searchHarness, send } from './helpers.js'

t.test('the demo knowledge base loads whole, each page in sections, and answers the shop\'s common questions', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const documents = await demoKnowledge()
  const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', documents)
  t.equal(res.statusCode, 200, res.body)
  t.same(res.json(), { received: 14, indexed: 14, unchanged: 0, total: 14 })
  for (const id of ['shipping', 'returns', 'warranty', 'payment']) {
    const page = (await send(h.app, shop.key, 'GET', `/knowledge/documents/${id}`)).json()
    t.ok(page.chunks.length >= 3, `${id} is split along its headings`)
    t.ok(page.chunks.every((c: { url: string }) => c.url.startsWith(`https://demo-shop.example/help/${id}#`)), `${id}: every chunk links to its section`)
  }
  const first = async (query: string) => {
    const found = await send(h.app, shop.key, 'POST', '/knowledge/search', { query, search_type: 'keyword', limit: 3 })
    return (found.json().hits as Array<{ document_id: string }>).map((hit) => hit.document_id)
  }
  t.match(await first('how long does shipping take'), ['faq-shipping-time'])
  t.match(await first('what is your return policy'), ['faq-return-policy'])
  t.ok((await first('is the warranty two years')).some((id) => id === 'warranty' || id === 'faq-warranty-length'), 'the warranty question finds the warranty')
  t.ok((await first('which payment methods')).includes('faq-payment-methods'))
})
