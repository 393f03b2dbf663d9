import t from 'tap'
import { silentSite } from '@chatsearch/testkit/silent-site'
import { webhookReceiver } from '@chatsearch/testkit/webhook-receiver'
import { WEBHOOK_DEFAULTS, verifySignature } from '@chatsearch/webhooks'
import { searchHarness, send, taskIn } from './helpers.js'
import { page, startSite } from './crawl-site.js'

const FAST = { tasks: { heartbeatMs: 200, pollMs: 500, shutdownGraceMs: 300 } }
const webhooks = { ...WEBHOOK_DEFAULTS, allowPrivateNetworks: true, pollMs: 50, retryBaseMs: 50, timeoutMs: 2000 }

t.test('a task that ends tells the project\'s webhooks: task.succeeded, task.failed or task.canceled, with the task as GET /tasks shows it', async (t) => {
  const h = await searchHarness(t, false, { ...FAST, crawlAllowPrivateNetworks: true, webhooks })
  const shop = await h.tenant()
  const other = await h.tenant()
  const hook = await webhookReceiver(t)
  const theirs = await webhookReceiver(t)
  const { rows: [endpoint] } = await h.db.query<{ secret: string }>(
    "INSERT INTO webhook_endpoints (id, project_id, url, events, secret) VALUES (gen_random_uuid(), $1, $2, '{task.succeeded,task.failed,task.canceled}', 'whsec_search') RETURNING secret",
    [shop.projectId, hook.url])
  await h.db.query("INSERT INTO webhook_endpoints (id, project_id, url, events, secret) VALUES (gen_random_uuid(), $1, $2, '{task.succeeded,task.failed}', 'whsec_other')", [other.projectId, theirs.url])
  const site = await startSite(t, { '/': page('<!doctype html><html><head><title>Help</title></head><body><main><h1>Help</h1><p>Standard delivery takes three to five working days.</p></main></body></html>') })

  const ok = (await send(h.app, shop.key, 'POST', '/knowledge/crawl', { url: `${site.origin}/` })).json().task_id as string
  const done = await taskIn(h.app, shop.key, ok, ['succeeded', 'failed'], 30_000)
  t.equal(done.status, 'succeeded')
  await hook.until(1)
  const succeeded = JSON.parse(hook.received[0]!.body)
  t.match(succeeded, { type: 'task.succeeded', project_id: shop.projectId, data: { id: ok, type: 'crawl', status: 'succeeded' } })
  t.same(succeeded.data, done, 'the task as GET /tasks/{id} answers it')
  t.equal(verifySignature({ header: hook.received[0]!.headers['x-chatsearch-signature'] as string, body: hook.received[0]!.body, secret: endpoint!.secret }), true)

  const bad = (await send(h.app, shop.key, 'POST', '/knowledge/crawl', { url: 'http://127.0.0.1:1/' })).json().task_id as string
  const failed = await taskIn(h.app, shop.key, bad, ['succeeded', 'failed'], 30_000)
  t.equal(failed.status, 'failed')
  await hook.until(2)
  t.match(JSON.parse(hook.received[1]!.body), { type: 'task.failed', data: { id: bad, status: 'failed', error: { code: failed.error?.code } } })

  // A crawl of a site that never answers, canceled while it runs.
  const silent = await silentSite(t)
  const stuck = (await send(h.app, shop.key, 'POST', '/knowledge/crawl', { url: silent.url })).json().task_id as string
  await taskIn(h.app, shop.key, stuck, ['processing'])
  const canceled = (await send(h.app, shop.key, 'POST', `/tasks/${stuck}/cancel`)).json()
  t.equal(canceled.status, 'canceled')
  await hook.until(3)
  const told = JSON.parse(hook.received[2]!.body)
  t.match(told, { type: 'task.canceled', data: { id: stuck, status: 'canceled' } })
  t.same(told.data, canceled, 'the task as the cancel answered it')
  t.equal((await send(h.app, shop.key, 'POST', `/tasks/${stuck}/cancel`)).statusCode, 200)
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.equal(hook.received.length, 3, 'one delivery per task: canceling again tells nothing more')
  t.equal(theirs.received.length, 0, 'another project\'s endpoint hears nothing of this one\'s tasks')
})
