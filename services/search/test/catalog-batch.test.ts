import t, { type Test } from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { searchHarness, send } from './helpers.js'
import { WriterThread } from '../src/engines/embedded/writer.js'
import { BatchError } from '../src/ingest/batch.js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * POST /documents takes its body as bytes. With reader threads the writer thread parses, checks and
 * writes it; without, the service's thread does. Either way the client sees the same answers.
 */
const rawBodySuite = (readers: number) => async (t: Test) => {
  const h = await searchHarness(t, false, { readers, catalogTask: { items: 3, bytes: 8 * 1024 * 1024 } })
  const shop = await h.tenant()
  const post = (body: string, type = 'application/json', headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'POST', url: '/documents', headers: { authorization: `Bearer ${shop.key}`, 'content-type': type, ...headers }, payload: body })

  t.test('where the batch is parsed', async (t) => {
    const index = await h.app.engine.index(shop.projectId)
    t.equal(typeof index.ingestBatch, readers > 0 ? 'function' : 'undefined', readers > 0 ? 'on the writer thread' : 'on the service\'s thread')
  })

  t.test('a good batch is indexed, as JSON and as NDJSON', async (t) => {
    const res = await post(JSON.stringify([{ id: 'a', title: 'Oak table', price: 120 }, { id: 7, title: 'Pine chair' }]))
    t.equal(res.statusCode, 200)
    t.same(res.json(), { received: 2, indexed: 2, unchanged: 0, total: 2 })
    t.same((await send(h.app, shop.key, 'GET', '/documents/7')).json(), { id: '7', title: 'Pine chair' })
    const nd = await post('{"id": "a", "title": "Oak table", "price": 120}\n\n{"id": "b", "title": "Birch shelf"}\n', 'application/x-ndjson')
    t.same(nd.json(), { received: 2, indexed: 1, unchanged: 1, total: 3 }, 'the unchanged item is recognised')
    const found = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'birch' })).json()
    t.same(found.hits.map((hit: { id: string }) => hit.id), ['b'], 'searchable at once')
  })

  t.test('a bad body is refused with the same codes and messages as any JSON body, nothing written', async (t) => {
    const deep = '['.repeat(40) + ']'.repeat(40)
    const cases: Array<[string, string, string, RegExp]> = [
      ['empty', '', 'invalid_request', /^the JSON body is empty$/],
      ['broken JSON', '[{"id": 1,,}]', 'invalid_request', /^the body is not valid JSON$/],
      ['prototype poisoning', '[{"id": "p", "__proto__": {"admin": true}}]', 'invalid_request', /^the body is not valid JSON$/],
      ['constructor poisoning', '[{"id": "q", "constructor": {"prototype": {"admin": true}}}]', 'invalid_request', /^the body is not valid JSON$/],
      ['not an array', '{"id": "x"}', 'invalid_request', /^body must be array$/],
      ['a NUL character', '[{"id": "n", "title": "a\\u0000b"}]', 'invalid_request', /NUL/],
      ['nested too deep', deep, 'invalid_request', /nested more than 32 levels/],
      ['a bad item', '[{"id": "ok"}, {"title": "no id"}]', 'invalid_document', /document 1: missing field "id"/],
      // Each hit shows these fields as their type (the contracts' hitFieldTypes): another type is refused.
      ['a price that is not a number', '[{"id": "ok"}, {"id": "p", "price": "cheap"}]', 'invalid_document', /^document 1 \(id p\): field "price" must be a number or null, not a string: every search hit shows it as a number$/],
      ['a brand that is an object', '[{"id": "b", "brand": {"name": "Acme"}}]', 'invalid_document', /field "brand" must be a string or null, not an object/],
      ['a category that is a list', '[{"id": "c", "category": ["A", "B"]}]', 'invalid_document', /field "category" must be a string or null, not an array/],
      ['in stock as a word', '[{"id": "s", "in_stock": "yes"}]', 'invalid_document', /field "in_stock" must be a boolean or null, not a string/],
      ['a rating that is a boolean', '[{"id": "r", "rating": true}]', 'invalid_document', /field "rating" must be a number or null, not a boolean/]
    ]
    for (const [name, body, code, message] of cases) {
      const res = await post(body)
      t.equal(res.statusCode, 400, name)
      t.equal(res.json().code, code, name)
      t.match(res.json().message, message, name)
    }
    const nd = await post('{"id": "c"}\n{"id": 9,,}\n', 'application/x-ndjson')
    t.equal(nd.json().code, 'invalid_document')
    t.match(nd.json().message, /^line 2 is not valid JSON$/)
    t.equal((await post('[]', 'text/plain')).statusCode, 415, 'other content types as before')
    t.equal((await send(h.app, shop.key, 'GET', '/documents/ok')).statusCode, 404)
    t.equal((await send(h.app, shop.key, 'GET', '/documents/c')).statusCode, 404)
    t.equal((await send(h.app, shop.key, 'GET', '/documents/p')).statusCode, 404)
    t.equal((await post('[]')).json().total, 3, 'nothing half-applied')
  })

  t.test('more items than the threshold are checked whole, then queued', async (t) => {
    const four = [1, 2, 3, 4].map((i) => ({ id: `q${i}`, title: `Queued ${i}` }))
    const bad = await post(JSON.stringify([...four, { id: 'has space' }]))
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'invalid_document')
    const queued = await post(JSON.stringify(four))
    t.equal(queued.statusCode, 202)
    t.type(queued.json().task_id, 'string')
  })

  t.test('a retry with an Idempotency-Key is answered from the first run; another body is 422', async (t) => {
    const body = JSON.stringify([{ id: 'i1', title: 'Idempotent lamp' }])
    const first = await post(body, 'application/json', { 'idempotency-key': `batch-${readers}` })
    const again = await post(body, 'application/json', { 'idempotency-key': `batch-${readers}` })
    t.equal(again.headers['idempotent-replayed'], 'true')
    t.same(again.json(), first.json())
    const other = await post(JSON.stringify([{ id: 'i2' }]), 'application/json', { 'idempotency-key': `batch-${readers}` })
    t.equal(other.statusCode, 422)
    // Unlike other routes, the batch is compared as bytes (README, Idempotency-Key).
    const reordered = await post(JSON.stringify([{ title: 'Idempotent lamp', id: 'i1' }]), 'application/json', { 'idempotency-key': `batch-${readers}` })
    t.equal(reordered.statusCode, 422, 'the same item with its fields in another order is another batch')
  })
}

t.test('POST /documents parsed on the writer thread (readers: 1)', rawBodySuite(1))
t.test('POST /documents parsed on the service\'s thread (readers: 0)', rawBodySuite(0))

t.test('the writer thread gets its vectors from the service\'s embedder, and fails with its error', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-writer-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const writer = new WriterThread({ id: 'test-embedder', dimensions: 4 })
  t.teardown(() => writer.close())
  const file = join(dir, 'p.sqlite')
  const asked: string[][] = []
  const embed = async (texts: string[]) => {
    asked.push(texts)
    return texts.map((text) => text.includes('nothing') ? null : Float32Array.from([1, 0, 0, 0]))
  }
  const bytes = (items: unknown[]) => ({ format: 'json' as const, bytes: Buffer.from(JSON.stringify(items)) })
  const result = await writer.ingest(file, bytes([{ id: 'x', title: 'Walnut desk' }, { id: 'y', title: 'nothing here' }]), embed, 100)
  t.same(result, { received: 2, indexed: 2, unchanged: 0, total: 2 })
  t.same(asked, [['Walnut desk', 'nothing here']], 'the changed items\' texts, asked once')
  t.same(await writer.ingest(file, bytes([{ id: 'x', title: 'Walnut desk' }]), embed, 100), { received: 1, indexed: 0, unchanged: 1, total: 2 })
  t.equal(asked.length, 1, 'an unchanged item is not embedded again')
  t.equal(await writer.ingest(file, bytes([{ id: 'z1' }, { id: 'z2' }]), embed, 1), undefined, 'above maxItems: nothing written')

  class EmbedderDown extends Error { code = 'ECONNREFUSED' }
  const failing: Embedder['embed'] = async () => { throw new EmbedderDown('embeddings endpoint did not answer') }
  const down = await writer.ingest(file, bytes([{ id: 'w', title: 'Teak bench' }]), failing, 100).catch((err: unknown) => err)
  t.ok(down instanceof EmbedderDown, 'the embedder\'s own error, code included (a 503 rather than a 500)')
  const refused = await writer.ingest(file, bytes([{ id: 'has space' }]), undefined, 100).catch((err: unknown) => err)
  t.ok(refused instanceof BatchError && refused.code === 'invalid_document', 'a bad item as a BatchError with its code')
  t.same(await writer.ingest(file, bytes([]), undefined, 100), { received: 0, indexed: 0, unchanged: 0, total: 2 }, 'nothing of the failed batches was written')

  const records = Array.from({ length: 3 }, (_, i) => writer.record(file, `desk ${i}`, { keywordHits: 1, searcher: 'c:shopper' }))
  t.equal(writer.pending, 3, 'three writes sent and not yet answered (memory_store_entries{store="search_writer_requests"})')
  await Promise.all(records)
  t.equal(writer.pending, 0, 'all answered')
})

t.test('a typed hit field: null shown as null, and a value of another type stored before it was refused shown as null, never a 500', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const nulls = await send(h.app, shop.key, 'POST', '/documents', [{ id: 'n', title: 'Zzyzx lamp', price: null, brand: null, in_stock: null }])
  t.equal(nulls.statusCode, 200, 'null is accepted for each typed field')
  const first = (await send(h.app, shop.key, 'POST', '/search', { search_term: 'zzyzx' })).json()
  t.match(first.hits, [{ id: 'n', price: null, brand: null, in_stock: null }], 'and shown as null, not 0, "" or false')

  // As a catalog imported before POST /documents refused them holds them: written past the check.
  const index = await h.app.engine.index(shop.projectId)
  await index.upsert([{ document: { id: 'old', title: 'Zzyzx shade', price: 'cheap', in_stock: 'yes', brand: { name: 'Acme' }, rating: 4 } }])
  const res = await send(h.app, shop.key, 'POST', '/search', { search_term: 'zzyzx shade', attributes_to_highlight: ['title'] })
  t.equal(res.statusCode, 200, 'the search answers')
  t.match(res.json().hits[0], { id: 'old', title: 'Zzyzx shade', price: null, in_stock: null, brand: null, rating: 4 }, 'the fields of another type shown as null, the others as stored')
  t.same((await send(h.app, shop.key, 'GET', '/documents/old')).json().price, 'cheap', 'the item itself is unchanged')
  const hybridless = await send(h.app, shop.key, 'POST', '/search', { search_term: '', sort: [] })
  t.equal(hybridless.statusCode, 200, 'browsing too')
})
