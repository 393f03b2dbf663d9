import pg from 'pg'
import t from 'tap'
import { testDatabase } from '@chatsearch/testkit'
import type { LookupFunction } from '@chatsearch/shell'
import { checkWebhookUrl, retryDelay, verifySignature } from '../src/index.js'
import { claimDue } from '../src/store.js'
import { deliveryWhen, project, receiver, webhookApp } from './helpers.js'

const databaseUrl = await testDatabase(t)

/** Adds an endpoint straight in the table; answers its id and secret. */
async function endpoint (app: Awaited<ReturnType<typeof webhookApp>>, projectId: string, url: string, events: string[]) {
  const { rows } = await app.pg.query<{ id: string, secret: string }>(
    "INSERT INTO webhook_endpoints (id, project_id, url, events, secret) VALUES (gen_random_uuid(), $1, $2, $3, 'whsec_' || md5(random()::text)) RETURNING id, secret",
    [projectId, url, events])
  return rows[0]!
}

t.test('an event reaches each subscribed endpoint once, signed, with the documented body and headers', async (t) => {
  const app = await webhookApp(databaseUrl)
  t.teardown(() => app.close())
  const projectId = await project(app, 'signed')
  const hook = await receiver(t)
  const other = await receiver(t)
  const subscribed = await endpoint(app, projectId, hook.url, ['chat.handoff'])
  await endpoint(app, projectId, other.url, ['feedback.created'])
  t.equal(await app.webhooks.emit(projectId, 'chat.handoff', { chat_id: 'c1' }), 1)
  await hook.until(1)
  const [got] = hook.received
  const body = JSON.parse(got!.body)
  t.same(Object.keys(body), ['id', 'type', 'created_at', 'project_id', 'data'])
  t.match(body, { type: 'chat.handoff', project_id: projectId, data: { chat_id: 'c1' } })
  t.equal(got!.headers['content-type'], 'application/json')
  t.equal(got!.headers['x-chatsearch-event'], 'chat.handoff')
  t.equal(verifySignature({ header: got!.headers['x-chatsearch-signature'] as string, body: got!.body, secret: subscribed.secret }), true)
  const row = await deliveryWhen(app, `endpoint_id = '${subscribed.id}'`, (r) => r.status === 'succeeded')
  t.match(row, { attempts: 1, last_status_code: 200, last_error: null })
  t.equal(got!.headers['x-chatsearch-delivery'], row.id)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.equal(other.received.length, 0, 'the endpoint not subscribed to the event got nothing')
  t.equal(hook.received.length, 1, 'delivered once')
})

t.test('500s and timeouts are retried with growing waits until the endpoint answers 2xx; the event id stays', async (t) => {
  const app = await webhookApp(databaseUrl, { timeoutMs: 300, retryBaseMs: 100 })
  t.teardown(() => app.close())
  const projectId = await project(app, 'retried')
  // 1: 500, 2: no answer (timeout), 3: 503, 4: 200.
  const hook = await receiver(t, (n, res) => {
    if (n === 1) { res.statusCode = 500; res.end('database down') }
    if (n === 3) { res.statusCode = 503; res.end() }
    if (n === 4) res.end('ok')
  })
  const { id } = await endpoint(app, projectId, hook.url, ['task.failed'])
  await app.webhooks.emit(projectId, 'task.failed', { task: 'x' })
  const row = await deliveryWhen(app, `endpoint_id = '${id}'`, (r) => r.status === 'succeeded')
  t.equal(row.attempts, 4)
  t.equal(row.last_status_code, 200)
  t.equal(row.last_error, null, 'a success clears the last error')
  const at = hook.received.map((r) => r.at)
  const waits = at.slice(1).map((a, i) => a - at[i]!)
  // After attempt 1: 100 ms; after 2 (300 ms timeout first): 200 ms; after 3: 400 ms.
  t.ok(waits[0]! >= 90, `first wait ${waits[0]} ms ≥ 100`)
  t.ok(waits[1]! >= 300 + 190, `second wait ${waits[1]} ms ≥ timeout + 200`)
  t.ok(waits[2]! >= 390, `third wait ${waits[2]} ms ≥ 400`)
  t.equal(new Set(hook.received.map((r) => JSON.parse(r.body).id)).size, 1, 'every attempt carries the same event id')
  t.same([1, 2, 3, 4].map((n) => retryDelay(n, 100)), [100, 200, 400, 800])
})

t.test('after the last attempt the delivery fails for good, keeping the last status and error', async (t) => {
  const app = await webhookApp(databaseUrl, { maxAttempts: 3, retryBaseMs: 20 })
  t.teardown(() => app.close())
  const projectId = await project(app, 'gives-up')
  const hook = await receiver(t, (_n, res) => { res.statusCode = 502; res.end('bad gateway '.repeat(1000)) })
  const { id } = await endpoint(app, projectId, hook.url, ['feedback.created'])
  await app.webhooks.emit(projectId, 'feedback.created', { rating: 'down' })
  const row = await deliveryWhen(app, `endpoint_id = '${id}'`, (r) => r.status === 'failed')
  t.equal(row.attempts, 3)
  t.equal(row.last_status_code, 502)
  t.match(row.last_error as string, /^answered 502: bad gateway/)
  t.ok((row.last_error as string).length <= 250, 'the answer is quoted short')
  t.equal(row.next_attempt_at, null)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.equal(hook.received.length, 3, 'no attempt after the last')
})

t.test('a delivery pending when the app stops is sent by the next app', async (t) => {
  const hook = await receiver(t)
  // The first app's worker is never due to poll in the test's time: what it emits stays pending.
  const first = await webhookApp(databaseUrl, { pollMs: 60_000 })
  const projectId = await project(first, 'restart')
  const { id } = await endpoint(first, projectId, hook.url, ['chat.answered_by_team'])
  // Emitted within a transaction (as the chat service does): the worker is not woken.
  const client = await first.pg.connect()
  await client.query('BEGIN')
  await first.webhooks.emit(projectId, 'chat.answered_by_team', { chat_id: 'c9' }, client)
  await client.query('COMMIT')
  client.release()
  await first.close()
  t.equal(hook.received.length, 0, 'nothing sent before the stop')
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const { rows } = await db.query('SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1', [id])
  await db.end()
  t.same(rows, [{ status: 'pending', attempts: 0 }], 'pending when the app stopped')
  const second = await webhookApp(databaseUrl)
  t.teardown(() => second.close())
  await hook.until(1)
  t.match(JSON.parse(hook.received[0]!.body), { type: 'chat.answered_by_team', data: { chat_id: 'c9' } })
  await deliveryWhen(second, `endpoint_id = '${id}'`, (r) => r.status === 'succeeded')
})

t.test('a delivery whose worker died mid-attempt is sent again once its lease is over, the attempt counted', async (t) => {
  const hook = await receiver(t)
  const app = await webhookApp(databaseUrl, { pollMs: 60_000 })
  const projectId = await project(app, 'lease')
  const { id } = await endpoint(app, projectId, hook.url, ['task.failed'])
  await app.webhooks.emit(projectId, 'task.failed', { task: 'crashed' }, app.pg)
  // A worker claims it with a 300 ms lease and dies before recording anything.
  const [claimed] = await claimDue(app.pg, 10, 300)
  t.equal(claimed?.attempts, 1)
  t.equal((await claimDue(app.pg, 10, 300)).length, 0, 'leased: no other worker claims it meanwhile')
  await app.close()
  const next = await webhookApp(databaseUrl)
  t.teardown(() => next.close())
  await hook.until(1)
  const row = await deliveryWhen(next, `endpoint_id = '${id}'`, (r) => r.status === 'succeeded')
  t.equal(row.attempts, 2, 'the lost attempt counts')
  t.ok(hook.received[0]!.at - Date.parse(String(claimed!.created_at)) >= 300, 'not before the lease ended')
})

t.test('a redirect is not followed: the attempt fails with the 3xx, and the target is never asked', async (t) => {
  const app = await webhookApp(databaseUrl, { maxAttempts: 1 })
  t.teardown(() => app.close())
  const projectId = await project(app, 'redirect')
  const target = await receiver(t)
  const hook = await receiver(t, (_n, res) => { res.statusCode = 302; res.setHeader('location', target.url); res.end() })
  const { id } = await endpoint(app, projectId, hook.url, ['task.succeeded'])
  await app.webhooks.emit(projectId, 'task.succeeded', {})
  const row = await deliveryWhen(app, `endpoint_id = '${id}'`, (r) => r.status === 'failed')
  t.equal(row.last_status_code, 302)
  t.match(row.last_error as string, /redirects are not followed/)
  t.equal(target.received.length, 0)
})

t.test('internal addresses are refused when delivering unless WEBHOOK_ALLOW_PRIVATE_NETWORKS allows them', async (t) => {
  const app = await webhookApp(databaseUrl, { allowPrivateNetworks: false, maxAttempts: 1 })
  t.teardown(() => app.close())
  const projectId = await project(app, 'guarded')
  const hook = await receiver(t)
  const literal = await endpoint(app, projectId, hook.url, ['task.succeeded'])
  const named = await endpoint(app, projectId, hook.url.replace('127.0.0.1', 'localhost'), ['task.succeeded'])
  await app.webhooks.emit(projectId, 'task.succeeded', {})
  const a = await deliveryWhen(app, `endpoint_id = '${literal.id}'`, (r) => r.status === 'failed')
  const b = await deliveryWhen(app, `endpoint_id = '${named.id}'`, (r) => r.status === 'failed')
  t.match(a.last_error, /^refused: 127\.0\.0\.1, an internal address \(loopback\); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/)
  t.match(b.last_error, /^refused: localhost resolves to (127\.0\.0\.1|::1), an internal address \(loopback\)/)
  t.equal(hook.received.length, 0)
})

t.test('checkWebhookUrl refuses internal, non-http and credentialed URLs at configuration time', async (t) => {
  const dns: LookupFunction = (hostname, _options, callback) => {
    const table: Record<string, string> = { 'intranet.test': '10.1.2.3', 'metadata.test': '169.254.169.254', 'shop.test': '93.184.216.34' }
    const address = table[hostname]
    if (address === undefined) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), '')
    callback(null, [{ address, family: 4 }])
  }
  const refused = async (url: string, message: RegExp) => await t.rejects(checkWebhookUrl(url, false, dns), { code: 'invalid_webhook_url', message }, url)
  await refused('http://127.0.0.1:9/hook', /127\.0\.0\.1, an internal address \(loopback\)/)
  await refused('http://[::1]/hook', /::1, an internal address \(loopback\)/)
  await refused('http://10.0.0.8/hook', /\(private\)/)
  await refused('http://192.168.1.1/hook', /\(private\)/)
  await refused('http://169.254.169.254/latest/meta-data', /\(linkLocal\)/)
  await refused('http://[::ffff:127.0.0.1]/', /internal address/)
  await refused('http://intranet.test/hook', /intranet\.test resolves to 10\.1\.2\.3/)
  await refused('http://metadata.test/', /169\.254\.169\.254/)
  await refused('ftp://shop.test/', /http\(s\)/)
  await refused('https://user:pw@shop.test/', /user name or password/)
  await refused('not a url', /absolute http\(s\) URL/)
  t.equal(await checkWebhookUrl('https://shop.test/hooks', false, dns), 'https://shop.test/hooks')
  t.equal(await checkWebhookUrl('https://unknown.test/hooks', false, dns), 'https://unknown.test/hooks', 'a name that does not resolve now is accepted')
  t.equal(await checkWebhookUrl('http://127.0.0.1:9/hook', true, dns), 'http://127.0.0.1:9/hook', 'the switch allows loopback')
})
