import t, { type Test } from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isUsableVector, openAiEmbedder } from '../src/index.js'

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

t.test('texts with nothing to embed are not sent (OpenAI refuses an empty input) and get the zero vector', async (t) => {
  const api = await fakeApi(t, (body, req, res) => {
    // As api.openai.com answers an empty string in `input`.
    if (body.input.some((text) => text === '')) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"\'$.input\' is invalid. Please check the API reference"}}')
      return
    }
    ok(body, req, res)
  })
  const embedder = await openAiEmbedder({ baseUrl: api.baseUrl, model: 'm', batchSize: 2 })
  const texts = ['', 'a', '  ', 'bbb', '\n', 'cc']
  const vectors = await embedder.embed(texts)
  t.equal(vectors.length, texts.length, 'one vector per text, in order')
  for (const i of [0, 2, 4]) t.same(vectors[i], new Float32Array(4), `${JSON.stringify(texts[i])}: the zero vector`)
  for (const i of [1, 3, 5]) t.ok(isUsableVector(vectors[i]), `${JSON.stringify(texts[i])}: embedded`)
  t.ok(vectors[3]![0]! > vectors[1]![0]!, 'each text its own vector')
  t.same(api.calls.slice(1).map((c) => c.input), [['a', 'bbb'], ['cc']], 'only texts with something in them were sent')
  const calls = api.calls.length
  t.same(await embedder.embed(['', ' ']), [new Float32Array(4), new Float32Array(4)])
  t.equal(api.calls.length, calls, 'nothing to embed, no call')
})

t.test('a zero vector from the endpoint stays zero (no NaN from normalising it)', async (t) => {
  const api = await fakeApi(t, (body, _req, res) => {
    const data = body.input.map((text, index) => ({ index, embedding: text === 'void' ? [0, 0, 0, 0] : vectorOf(text) }))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }))
  })
  const embedder = await openAiEmbedder({ baseUrl: api.baseUrl, model: 'm' })
  const [zero, some] = await embedder.embed(['void', 'word'])
  t.same(zero, new Float32Array(4))
  t.notOk(isUsableVector(zero))
  t.ok(isUsableVector(some))
})
