import t from 'tap'
import { harness, post } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { searchRetriever } from '../src/assistant/retriever.js'

interface Reply { assistant_response: string, citations: Array<{ reference: string, title?: string }> }

t.test('the chat keeps citing while the catalog settings change, and after', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop)
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 } })
  const retriever = searchRetriever({ searchUrl: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 })
  const ask = async (message: string): Promise<Reply> => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: message, consumer_id: 'shopper' })
    t.equal(res.statusCode, 200, message)
    return res.json()
  }
  const cites = (reply: Reply, what: string) => {
    t.ok(reply.citations.length > 0, `${what}: cites (${reply.assistant_response.slice(0, 60)})`)
    for (const c of reply.citations) t.match(c.title, /tent/i, `${what}: ${c.title}`)
  }
  const question = 'Do you have any tents?'

  cites(await ask(question), 'before')
  const before = await retriever.retrieve(shop.projectId, question, [])
  t.equal(before.failure, undefined)
  t.match(before.plan?.filter, /category/, 'the catalog shape the chat keeps says category is filterable')

  // The README's own example: category is neither searchable nor filterable any more.
  const settings = { searchableAttributes: ['title', 'brand', 'description'], filterableAttributes: ['price', 'brand', 'in_stock'], facetableAttributes: ['brand'] }
  const change = fetch(`${stack.url}/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId, 'content-type': 'application/json' },
    body: JSON.stringify(settings)
  })
  cites(await ask(question), 'while the settings change')
  const changed = await change
  t.equal(changed.status, 200)
  t.same(await changed.json(), { ...settings, sortableAttributes: [], synonyms: {}, stopWords: [], suggestionsMinSearchers: 3, suggestionsExcluded: [] },
    'as sent, nothing sortable, no synonyms nor stop words (left out), autocomplete\'s defaults')

  const after = await ask(question)
  cites(after, 'after')
  t.notMatch(after.assistant_response, /unable to reach/i)
  const retrieved = await retriever.retrieve(shop.projectId, question, [])
  t.equal(retrieved.failure, undefined, 'a retriever that knew the old settings reads the new ones')
  t.ok(retrieved.items.length > 0)
  t.notMatch(retrieved.plan?.filter ?? '', /category/, 'and no longer filters on category')
  t.equal(app.assistant.stats.retrievalFailures, 0, 'no turn went without the catalog')
})
