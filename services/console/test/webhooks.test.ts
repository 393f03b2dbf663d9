import { createHmac } from 'node:crypto'
import t from 'tap'
import { webhookReceiver } from '@chatsearch/testkit/webhook-receiver'
import { harness, signIn } from './helpers.js'
import { services } from './support/stack.js'

const webhooks = { timeoutMs: 2000, maxAttempts: 3, retryBaseMs: 50, pollMs: 50, allowPrivateNetworks: true }

t.test('a project\'s webhooks are managed through the console, forwarded to the chat service', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h, {}, { webhooks })
  await h.user('alice')
  await h.user('mallory')
  const app = await h.app({ searchUrl, chatUrl })
  const alice = await signIn(app, 'alice')
  const mallory = await signIn(app, 'mallory')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const base = `/api/projects/${projectId}/webhooks`
  const hook = await webhookReceiver(t)

  const created = await alice.request({ method: 'POST', url: base, payload: { url: hook.url, events: ['chat.handoff'] } })
  t.equal(created.statusCode, 201, created.body)
  const endpoint = created.json()
  t.match(endpoint, { url: hook.url, events: ['chat.handoff'], enabled: true, secret: /^whsec_/ })

  const sent = await alice.request({ method: 'POST', url: `${base}/${endpoint.id}/test` })
  t.equal(sent.statusCode, 202, sent.body)
  await hook.until(1)
  const got = hook.received[0]!
  const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-chatsearch-signature'])) ?? []
  t.equal(v1, createHmac('sha256', endpoint.secret).update(`${ts}.${got.body}`).digest('hex'), 'signed with the secret the console showed')
  t.match(JSON.parse(got.body), { type: 'ping', project_id: projectId })

  let log = await alice.request({ method: 'GET', url: `${base}/${endpoint.id}/deliveries?limit=5` })
  for (let i = 0; i < 50 && log.json().results[0]?.status !== 'succeeded'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    log = await alice.request({ method: 'GET', url: `${base}/${endpoint.id}/deliveries?limit=5` })
  }
  t.equal(log.statusCode, 200)
  t.match(log.json(), { total: 1, limit: 5, offset: 0, results: [{ event: 'ping', status: 'succeeded', attempts: 1, last_status_code: 200 }] })

  t.same((await alice.request({ method: 'GET', url: base })).json().results.map((e: { id: string }) => e.id), [endpoint.id])
  const changed = await alice.request({ method: 'PATCH', url: `${base}/${endpoint.id}`, payload: { enabled: false } })
  t.equal(changed.json().enabled, false)
  const rotated = await alice.request({ method: 'POST', url: `${base}/${endpoint.id}/secret` })
  t.not(rotated.json().secret, endpoint.secret)
  const bad = await alice.request({ method: 'POST', url: base, payload: { url: hook.url, events: ['nope'] } })
  t.equal(bad.statusCode, 400, 'the chat service\'s refusal is passed on')
  t.equal(bad.json().code, 'invalid_request')
  const missing = await alice.request({ method: 'DELETE', url: `${base}/00000000-0000-4000-8000-000000000000` })
  t.equal(missing.json().code, 'webhook_not_found')

  t.equal((await mallory.request({ method: 'GET', url: base })).json().code, 'project_not_found', 'not a member: nothing of it')
  t.equal((await app.inject({ method: 'GET', url: base })).statusCode, 401, 'signed out')
  const noCsrf = await app.inject({ method: 'POST', url: `${base}/${endpoint.id}/test`, headers: { cookie: alice.cookie } })
  t.equal(noCsrf.json().code, 'csrf_failed')
  t.same((await alice.request({ method: 'DELETE', url: `${base}/${endpoint.id}` })).json(), { deleted: true })
})
