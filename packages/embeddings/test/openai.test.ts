import t, { type Test } from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openAiEmbedder } from '../src/index.js'

type Handler = (body: { model: string, input: string[] }, req: IncomingMessage, res: ServerResponse) => void

/** A local server speaking the OpenAI embeddings wire format, with behaviour chosen per test. */
async function fakeApi (t: Test, handler: Handler) {
  const calls: Array<{ model: string, input: string[], authorization?: string }> = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => { raw += c })
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string, input: string[] }
      calls.push({ ...body, ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }) })
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') { res.writeHead(404).end(); return }
      handler(body, req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls }
}

const vectorOf = (text: string) => [text.length, 1, 0, 2]
const ok: Handler = (body, _req, res) => {
  // Out of order on purpose: clients must place items by their index.
  const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })).reverse()
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }))
}

t.test('embeds in batches, in order, as unit vectors', async (t) => {
  const api = await fakeApi(t, ok)
  const embedder = await openAiEmbedder({ baseUrl: api.baseUrl + '/', model: 'text-embed-small', apiKey: 'sk-test', batchSize: 2 })
  t.equal(embedder.dimensions, 4, 'size learned from a probe')
  const vectors = await embedder.embed(['a', 'bbb', 'cc'])
  t.equal(vectors.length, 3)
  const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))
  t.ok(Math.abs(norm(vectors[1]!) - 1) < 1e-6)
  t.ok(vectors[1]![0]! > vectors[0]![0]!, 'items placed by index')
  t.same(api.calls.slice(1).map((c) => c.input), [['a', 'bbb'], ['cc']])
  t.equal(api.calls[0]!.authorization, 'Bearer sk-test')
  t.equal(api.calls[0]!.model, 'text-embed-small')
})

t.test('retries 429 and 5xx with backoff, then succeeds', async (t) => {
  let failures = 2
  const api = await fakeApi(t, (body, req, res) => {
    if (failures-- > 0) { res.writeHead(failures === 1 ? 429 : 503).end('{"error":{"message":"busy"}}'); return }
    ok(body, req, res)
  })
  const embedder = await openAiEmbedder({ baseUrl: api.baseUrl, model: 'm', retries: 2 })
  t.equal(embedder.dimensions, 4)
  t.equal(api.calls.length, 3)
})

t.test('fails clearly: bad status, wrong count, malformed vectors, timeouts', async (t) => {
  const unauthorized = await fakeApi(t, (_b, _r, res) => { res.writeHead(401).end('{"error":{"message":"bad key"}}') })
  await t.rejects(openAiEmbedder({ baseUrl: unauthorized.baseUrl, model: 'm' }), /answered 401: .*bad key/)
  const short = await fakeApi(t, (_b, _r, res) => { res.writeHead(200).end('{"data":[]}') })
  await t.rejects(openAiEmbedder({ baseUrl: short.baseUrl, model: 'm' }), /returned 0 vectors for 1 texts/)
  const junk = await fakeApi(t, (_b, _r, res) => { res.writeHead(200).end('{"data":[{"index":0,"embedding":["x"]}]}') })
  await t.rejects(openAiEmbedder({ baseUrl: junk.baseUrl, model: 'm' }), /malformed vector/)
  const slow = await fakeApi(t, () => { /* never answers */ })
  await t.rejects(openAiEmbedder({ baseUrl: slow.baseUrl, model: 'm', timeoutMs: 100, retries: 1 }), /did not answer/)
  await t.rejects(openAiEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', retries: 0 }), /did not answer/)
})
