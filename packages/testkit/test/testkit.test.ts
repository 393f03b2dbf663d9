import t from 'tap'
import { createServer } from 'node:net'
import { errorCatalog } from '@chatsearch/contracts'
import { freePort, metricSample } from '../src/testing.js'
import { answerProblem, asText, percentEncoded } from '../src/fuzz.js'

t.test('freePort gives a port nobody listens on', async (t) => {
  const port = await freePort()
  t.ok(port > 0 && port < 65536)
  const server = createServer()
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  await new Promise((resolve) => server.close(resolve))
})

t.test('metricSample reads one series, labels in any order', async (t) => {
  const text = [
    '# HELP http_requests_total Requests',
    'http_requests_total{route="/search",status="200"} 7',
    'http_requests_total{status="400",route="/search"} 2',
    'up 1'
  ].join('\n')
  t.equal(metricSample(text, 'http_requests_total', { route: '/search', status: '400' }), 2)
  t.equal(metricSample(text, 'http_requests_total', { status: '200' }), 7)
  t.equal(metricSample(text, 'up'), 1)
  t.equal(metricSample(text, 'http_requests_total', { status: '500' }), undefined)
})

t.test('answerProblem accepts only the documented error body', async (t) => {
  const entry = errorCatalog.invalid_request
  const good = JSON.stringify({ statusCode: entry.status, code: 'invalid_request', error: entry.title, message: 'bad' })
  t.equal(answerProblem(entry.status, 'application/json; charset=utf-8', good), undefined)
  t.equal(answerProblem(200, 'application/json', '{}'), undefined)
  t.match(answerProblem(500, 'application/json', good), /answered 500/)
  t.match(answerProblem(400, 'application/json', 'oops'), /not JSON/)
  t.match(answerProblem(400, 'application/json', JSON.stringify({ message: 'x' })), /keys message/)
  t.match(answerProblem(404, 'application/json', good), /a 404 whose body says 400/)
  t.match(answerProblem(entry.status, 'text/html', good), /sent as text\/html/)
  const streamError = `event: error\ndata: ${JSON.stringify({ statusCode: 503, code: 'x', error: 'y', message: 'z' })}\n\n`
  t.match(answerProblem(200, 'text/event-stream', streamError), /in a stream's error event: answered 503/)
})

t.test('percentEncoded sends a lone surrogate as its WTF-8 bytes', async (t) => {
  t.equal(percentEncoded('a b/ü'), 'a%20b%2F%C3%BC')
  t.equal(percentEncoded('x\ud800y'), 'x%ED%A0%80y')
})

t.test('asText turns any generated value into request text, even one String() refuses', async (t) => {
  t.equal(asText('a b'), 'a b')
  t.equal(asText(12), '12')
  t.equal(asText(null), 'null')
  t.equal(asText(undefined), '')
  t.equal(asText(['x', 1]), '["x",1]')
  const hostile = JSON.parse('{"toString":0,"valueOf":0}') as object
  t.throws(() => String(hostile), 'String() of it throws')
  t.equal(asText(hostile), '{"toString":0,"valueOf":0}')
})
