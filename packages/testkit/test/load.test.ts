import t from 'tap'
import { createServer } from 'node:http'
import { load, percentile } from '../src/load.js'

t.test('percentile is the nearest rank of ascending values', async (t) => {
  const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  t.equal(percentile(values, 50), 5)
  t.equal(percentile(values, 99), 10)
  t.equal(percentile(values, 0), 1)
  t.equal(percentile(Float64Array.from([3]), 50), 3)
  t.ok(Number.isNaN(percentile([], 50)))
})

t.test('a run counts what a local server answered, each request as `next` built it', async (t) => {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers['content-type'] ?? ''}`)
    res.statusCode = req.url === '/missing' ? 404 : 200
    res.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const { port } = server.address() as { port: number }
  let n = 0
  const result = await load({
    url: `http://127.0.0.1:${port}`,
    connections: 2,
    warmupS: 0.5,
    durationS: 1,
    headers: { authorization: 'Bearer x' },
    next: () => (n++ % 10 === 9 ? { path: '/missing' } : { path: `/q?i=${n}`, method: 'POST', body: '{"a":1}' })
  })
  t.ok(result.requests > 0 && result.requests < seen.length, 'the warm-up\'s responses are left out')
  t.equal(result.durationS, 1)
  t.ok(result.rps > 0)
  t.ok(result.p50 > 0 && result.p50 <= result.p99 && result.p99 <= result.max, 'latencies in order')
  t.ok(result.non2xx > 0 && result.statusCodes['404']! === result.non2xx, 'the 404s counted apart')
  t.ok(result.statusCodes['200']! > 0)
  t.equal(result.errors, 0)
  t.ok(seen.some((line) => /^POST \/q\?i=\d+ application\/json$/.test(line)), 'method, path and JSON content type as built')
  t.ok(seen.some((line) => line.startsWith('GET /missing')), 'GET when `next` names no method')
})

t.test('a signal ends the run early; the window is then as long as it lasted', async (t) => {
  const server = createServer((_req, res) => res.end('{}'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const { port } = server.address() as { port: number }
  const started = performance.now()
  const result = await load({ url: `http://127.0.0.1:${port}`, connections: 1, warmupS: 0.2, durationS: 30, next: () => ({ path: '/' }), signal: AbortSignal.timeout(1200) })
  t.ok(performance.now() - started < 10_000, 'stopped long before 30 s')
  t.ok(result.durationS > 0.5 && result.durationS < 5, `a measured window of ${result.durationS} s`)
})
