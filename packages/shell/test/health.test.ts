import t from 'tap'
import { healthRoutes, type ReadinessCheck } from '../src/health.js'
import { createServer } from '../src/server.js'

async function appWith (checks: Record<string, ReadinessCheck>, checkTimeoutMs = 200) {
  const app = createServer({ name: 'test', logLevel: 'silent' })
  await app.register(healthRoutes, { service: 'test', checks, checkTimeoutMs })
  await app.ready()
  t.teardown(() => app.close())
  return app
}

const ok: ReadinessCheck = async () => {}

t.test('healthz answers while the process is up, whatever the checks say', async (t) => {
  const app = await appWith({ database: async () => { throw new Error('down') } })
  const res = await app.inject('/healthz')
  t.equal(res.statusCode, 200)
  t.same(res.json(), { status: 'ok', service: 'test' })
})

t.test('readyz is 200 with every check named when all pass', async (t) => {
  const app = await appWith({ database: ok, engine: ok })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 200)
  t.same(res.json(), { status: 'ready', service: 'test', checks: { database: 'ok', engine: 'ok' } })
})

t.test('readyz is 503 naming the failing check, without its internals', async (t) => {
  const app = await appWith({
    database: async () => { throw new Error('password authentication failed for user "secret-user" at 10.1.2.3') },
    engine: ok
  })
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 503)
  const body = res.json()
  t.same(body, {
    statusCode: 503,
    error: 'Service Unavailable',
    code: 'not_ready',
    message: 'not ready: database (failed)',
    status: 'not_ready',
    service: 'test',
    checks: { database: 'failed', engine: 'ok' }
  })
  t.notMatch(res.body, /secret-user|10\.1\.2\.3|password/, 'the cause stays in the log')
})

t.test('a check that hangs is cut short and reported as a timeout', async (t) => {
  const app = await appWith({ database: ok, redis: () => new Promise<void>(() => {}) }, 100)
  const started = Date.now()
  const res = await app.inject('/readyz')
  t.ok(Date.now() - started < 2000, 'bounded by the check timeout')
  t.equal(res.statusCode, 503)
  t.same(res.json().checks, { database: 'ok', redis: 'timeout' })
  t.equal(res.json().message, 'not ready: redis (timeout)')
})

t.test('checks run concurrently, so the probe costs the slowest check, not their sum', async (t) => {
  // Each check answers only once all three have started: run one after the other, the first
  // would wait for the others and time out.
  let started = 0
  let allStarted = () => {}
  const together = new Promise<void>((resolve) => { allStarted = resolve })
  const waitsForTheOthers: ReadinessCheck = async () => {
    if (++started === 3) allStarted()
    await together
  }
  const app = await appWith({ a: waitsForTheOthers, b: waitsForTheOthers, c: waitsForTheOthers }, 5000)
  const res = await app.inject('/readyz')
  t.equal(res.statusCode, 200)
  t.same(res.json().checks, { a: 'ok', b: 'ok', c: 'ok' })
})

t.test('with no checks a service is ready as soon as it serves', async (t) => {
  const app = await appWith({})
  t.same((await app.inject('/readyz')).json(), { status: 'ready', service: 'test', checks: {} })
})

t.test('while the instance shuts down, readyz answers 503 with the error body like every route', async (t) => {
  const app = createServer({ name: 'test', logLevel: 'silent' })
  await app.register(healthRoutes, { service: 'test', checks: { database: ok } })
  const answers: Array<{ status: number, body: unknown }> = []
  // After the shell's own preClose hook: the instance is draining, and still listening.
  app.addHook('preClose', async () => {
    const res = await fetch(`${url}/readyz`)
    answers.push({ status: res.status, body: await res.json() })
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  await app.close()
  t.same(answers, [{
    status: 503,
    body: { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable', message: 'this instance is shutting down; retry the request' }
  }], 'not a 500 from a body that does not fit the not-ready schema')
})
