import t from 'tap'
import { harness } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { searchRetriever } from '../src/assistant/retriever.js'

t.test('the catalog shapes the retriever keeps stay at their cap however many projects ask', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop)
  const cap = 4
  let size = () => -1
  const retriever = searchRetriever({ searchUrl: stack.url, serviceToken: TOKEN, timeoutMs: 10_000, shapeEntries: cap, onShapes: (s) => { size = s } })

  const first = await retriever.retrieve(shop.projectId, 'Do you have any tents?', [])
  t.equal(first.failure, undefined)
  t.match(first.plan?.filter, /category/, 'the shape names the catalog\'s categories')
  t.equal(size(), 1)

  // Eight times the cap: projects with an empty catalog each get a shape of their own.
  const sizes: number[] = []
  for (let i = 0; i < cap * 8; i++) {
    const other = await h.tenant()
    t.equal((await retriever.retrieve(other.projectId, 'Do you have any tents?', [])).failure, undefined)
    sizes.push(size())
  }
  t.equal(Math.max(...sizes), cap, `never more than ${cap} shapes: ${sizes.join(',')}`)

  // The shop's shape was pushed out; asked again, it is read again and still right.
  const again = await retriever.retrieve(shop.projectId, 'Do you have any tents?', [])
  t.match(again.plan?.filter, /category/)
  t.equal(size(), cap)
})
