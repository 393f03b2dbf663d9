import t, { type Test } from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ENGINES, ids, searchHarness, send, type EngineKind } from './helpers.js'

/** A stand-in for an OpenAI-compatible /v1/embeddings API: vectors count a few topic words. */
const TOPICS = ['coffee', 'boot', 'headphone', 'tent', 'pan']
const embed = (text: string) => TOPICS.map((w) => (text.toLowerCase().split(w).length - 1) + 0.01)

async function fakeEmbeddings (t: Test) {
  let texts = 0
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => { raw += c })
    req.on('end', () => {
      const { input } = JSON.parse(raw) as { input: string[] }
      if (input.includes('')) {
        // As api.openai.com answers an empty input.
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end('{"error":{"message":"\'$.input\' is invalid. Please check the API reference"}}')
        return
      }
      texts += input.length
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: input.map((x, index) => ({ object: 'embedding', index, embedding: embed(x) })) }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, texts: () => texts }
}

const remoteSuite = (engine: EngineKind) => async (t: Test) => {
  const api = await fakeEmbeddings(t)
  const h = await searchHarness(t, true, { remoteEmbeddings: { baseUrl: api.baseUrl, model: 'fake-embed' } }, engine)
  const shop = await h.tenant()
  const catalog = await h.catalog()
  t.equal((await send(h.app, shop.key, 'POST', '/documents', catalog)).json().indexed, 12)
  t.ok(api.texts() >= 12, 'items were embedded by the endpoint')
  const res = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'espresso coffee please', search_type: 'hybrid', semantic_ratio: 1, limit: 2 })).json()
  t.same(ids(res).sort(), ['coffee-1', 'coffee-2'])
  const wordless = [{ id: 'hp-emoji', title: '🎧', description: '' }, { id: 'cam-x5', title: 'X5', description: '' }]
  const imported = await send(h.app, shop.key, 'POST', '/documents', wordless)
  t.equal(imported.statusCode, 200, 'an item with nothing to embed is not sent to the endpoint')
  t.equal(imported.json().indexed, 2)
  const hybrid = ids((await send(h.app, shop.key, 'POST', '/search', { search_term: 'x5', search_type: 'hybrid' })).json())
  t.equal(hybrid[0], 'cam-x5', 'the keyword match first')
  t.notOk(hybrid.includes('hp-emoji'), 'an item without a vector has no semantic rank')

  t.test('switching embedders re-embeds everything on the next import', async (t) => {
    const bundled = await h.restart({ remoteEmbeddings: undefined })
    const again = (await send(bundled, shop.key, 'POST', '/documents', catalog)).json()
    t.equal(again.indexed, 12, 'no item is skipped: the old vectors belong to another model')
    const third = (await send(bundled, shop.key, 'POST', '/documents', catalog)).json()
    t.equal(third.unchanged, 12)
  })
}

for (const engine of ENGINES) t.test(`an OpenAI-compatible embeddings endpoint replaces the bundled model (${engine} engine)`, remoteSuite(engine))
