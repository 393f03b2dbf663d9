import t, { type Test } from 'tap'
import { errorBody, type ErrorCode } from '@chatsearch/contracts'
import { metricSample } from '@chatsearch/testkit'
import { webhookReceiver } from '@chatsearch/testkit/webhook-receiver'
import { WEBHOOK_DEFAULTS, verifySignature } from '@chatsearch/webhooks'
import { harness, post, call } from './helpers.js'
import { TOKEN } from './support/search-stack.js'

const fast = { ...WEBHOOK_DEFAULTS, allowPrivateNetworks: true, pollMs: 50, retryBaseMs: 50, timeoutMs: 2000 }

t.test('webhooks of a project: configured through the admin routes, told of handoffs, team answers and ratings', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN, webhooks: fast })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const admin = (method: string, url: string, payload?: unknown, projectId = shop.projectId) => app.inject({
    method: method as 'GET', url, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': projectId }, ...(payload === undefined ? {} : { payload: payload as object })
  })
  const refused = (t: Test, res: Awaited<ReturnType<typeof admin>>, code: ErrorCode, name: string) => {
    t.equal(res.statusCode, errorBody(code).statusCode, `${name}: status`)
    t.same(res.json(), errorBody(code, res.json().message), `${name}: ${code}`)
  }

  const team = await webhookReceiver(t)
  const ratings = await webhookReceiver(t)
  const created = await admin('POST', '/admin/webhooks', { url: team.url, events: ['chat.handoff', 'chat.answered_by_team'] })
  t.equal(created.statusCode, 201)
  const endpoint = created.json()
  t.match(endpoint, { url: team.url, events: ['chat.handoff', 'chat.answered_by_team'], enabled: true, secret: /^whsec_[\w-]{43}$/ })
  const ratingsEndpoint = (await admin('POST', '/admin/webhooks', { url: ratings.url, events: ['feedback.created'] })).json()

  await t.test('a handed-off turn is one chat.handoff delivery, signed, to the subscribed endpoint only', async (t) => {
    const turn = (await post(app, shop.key, '/newUserMessage', { user_message: 'I want to cancel my order', consumer_id: 'ann' })).json()
    t.equal(turn.handoff, true)
    await team.until(1)
    const got = team.received[0]!
    t.equal(verifySignature({ header: got.headers['x-chatsearch-signature'] as string, body: got.body, secret: endpoint.secret }), true, 'the signature checks out with the secret shown at creation')
    const event = JSON.parse(got.body)
    t.match(event, { type: 'chat.handoff', project_id: shop.projectId, data: { chat_id: turn.chat_id, consumer_id: 'ann', user_message: 'I want to cancel my order', assistant_response: turn.assistant_response, reason: 'action', test: false } })
    t.match(event.data.msg_id, /^[\w-]{36}$/)
    // A turn that is not handed off announces nothing.
    const plain = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'ben' })).json()
    t.equal(plain.handoff, false)
    await new Promise((resolve) => setTimeout(resolve, 300))
    t.equal(team.received.length, 1, 'one delivery, for the handoff only')
    t.equal(ratings.received.length, 0, 'the endpoint subscribed to feedback.created only got nothing')
  })

  await t.test('a team member\'s answer is chat.answered_by_team; a rating is feedback.created', async (t) => {
    const chatId = JSON.parse(team.received[0]!.body).data.chat_id as string
    const answered = await admin('POST', `/admin/chats/${chatId}/answer`, { content: 'Cancelled for you.', username: 'sam' })
    t.equal(answered.statusCode, 201)
    await team.until(2)
    t.match(JSON.parse(team.received[1]!.body), { type: 'chat.answered_by_team', data: { chat_id: chatId, consumer_id: 'ann', username: 'sam', content: 'Cancelled for you.', msg_id: answered.json().msg_id } })
    const rated = await call(app, shop.key, { method: 'POST', url: '/feedback', payload: { chat_id: chatId, msg_id: answered.json().msg_id, rating: 'up', comment: 'thanks' } })
    t.equal(rated.statusCode, 200)
    await ratings.until(1)
    t.match(JSON.parse(ratings.received[0]!.body), { type: 'feedback.created', data: { chat_id: chatId, msg_id: answered.json().msg_id, rating: 'up', comment: 'thanks' } })
    t.equal(verifySignature({ header: ratings.received[0]!.headers['x-chatsearch-signature'] as string, body: ratings.received[0]!.body, secret: ratingsEndpoint.secret }), true)
  })

  await t.test('the delivery log lists each delivery newest first with its status and attempts, a page at a time', async (t) => {
    const log = await admin('GET', `/admin/webhooks/${endpoint.id}/deliveries`)
    t.equal(log.statusCode, 200)
    const { results, total, limit, offset } = log.json()
    t.same([total, limit, offset], [2, 20, 0])
    t.same(results.map((d: { event: string }) => d.event), ['chat.answered_by_team', 'chat.handoff'])
    t.match(results[0], { status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null, delivered_at: /Z$/ })
    const page = (await admin('GET', `/admin/webhooks/${endpoint.id}/deliveries?limit=1&offset=1`)).json()
    t.same(page.results.map((d: { event: string }) => d.event), ['chat.handoff'])
    const metrics = (await app.inject('/metrics')).body
    t.equal(metricSample(metrics, 'webhook_attempts_total', { outcome: 'delivered' }), 3, 'three attempts delivered, in /metrics')
    t.equal(metricSample(metrics, 'webhook_attempt_duration_seconds_count'), 3)
  })

  await t.test('"send test event" sends a ping whatever the endpoint subscribed to', async (t) => {
    const sent = await admin('POST', `/admin/webhooks/${ratingsEndpoint.id}/test`)
    t.equal(sent.statusCode, 202)
    t.match(sent.json(), { event: 'ping', status: 'pending' })
    await ratings.until(2)
    t.match(JSON.parse(ratings.received[1]!.body), { type: 'ping', id: sent.json().event_id })
  })

  await t.test('the endpoints are listed without their secrets; a rotated secret signs what follows', async (t) => {
    const list = (await admin('GET', '/admin/webhooks')).json()
    t.same(list.results.map((e: { id: string }) => e.id), [endpoint.id, ratingsEndpoint.id], 'oldest first')
    t.notOk(list.results.some((e: object) => 'secret' in e), 'no secret in the list')
    const rotated = (await admin('POST', `/admin/webhooks/${ratingsEndpoint.id}/secret`)).json()
    t.not(rotated.secret, ratingsEndpoint.secret)
    await admin('POST', `/admin/webhooks/${ratingsEndpoint.id}/test`)
    await ratings.until(3)
    const got = ratings.received[2]!
    t.equal(verifySignature({ header: got.headers['x-chatsearch-signature'] as string, body: got.body, secret: rotated.secret }), true, 'the new secret')
    t.equal(verifySignature({ header: got.headers['x-chatsearch-signature'] as string, body: got.body, secret: ratingsEndpoint.secret }), false, 'not the old one')
  })

  await t.test('an endpoint is changed, disabled and deleted; another project sees none of it', async (t) => {
    const changed = await admin('PATCH', `/admin/webhooks/${ratingsEndpoint.id}`, { events: ['feedback.created', 'chat.handoff'], enabled: false })
    t.equal(changed.statusCode, 200)
    t.match(changed.json(), { events: ['feedback.created', 'chat.handoff'], enabled: false })
    for (const [method, url] of [['GET', `/admin/webhooks/${endpoint.id}/deliveries`], ['PATCH', `/admin/webhooks/${endpoint.id}`], ['DELETE', `/admin/webhooks/${endpoint.id}`], ['POST', `/admin/webhooks/${endpoint.id}/test`], ['POST', `/admin/webhooks/${endpoint.id}/secret`]] as const) {
      refused(t, await admin(method, url, method === 'PATCH' ? { enabled: false } : undefined, other.projectId), 'webhook_not_found', `${method} ${url} of another project`)
    }
    t.same((await admin('GET', '/admin/webhooks', undefined, other.projectId)).json(), { results: [] })
    refused(t, await admin('GET', '/admin/webhooks/not-a-uuid/deliveries'), 'webhook_not_found', 'not a uuid')
    refused(t, await admin('POST', `/admin/webhooks/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`), 'delivery_not_found', 'unknown delivery')
    t.same((await admin('DELETE', `/admin/webhooks/${ratingsEndpoint.id}`)).json(), { deleted: true })
    refused(t, await admin('DELETE', `/admin/webhooks/${ratingsEndpoint.id}`), 'webhook_not_found', 'deleted twice')
  })

  await t.test('hostile bodies are refused with the catalog\'s 400s', async (t) => {
    refused(t, await admin('POST', '/admin/webhooks', { url: team.url }), 'missing_parameters', 'no events')
    refused(t, await admin('POST', '/admin/webhooks', { events: ['chat.handoff'] }), 'missing_parameters', 'no url')
    refused(t, await admin('POST', '/admin/webhooks', { url: team.url, events: [] }), 'invalid_request', 'empty events')
    refused(t, await admin('POST', '/admin/webhooks', { url: team.url, events: ['chat.deleted'] }), 'invalid_request', 'unknown event')
    refused(t, await admin('POST', '/admin/webhooks', { url: team.url, events: ['ping'] }), 'invalid_request', 'ping is not subscribable')
    refused(t, await admin('POST', '/admin/webhooks', { url: team.url, events: ['chat.handoff', 'chat.handoff'] }), 'invalid_request', 'an event twice')
    refused(t, await admin('POST', '/admin/webhooks', { url: 'x'.repeat(3000), events: ['chat.handoff'] }), 'invalid_request', 'a huge url')
    refused(t, await admin('POST', '/admin/webhooks', { url: 'file:///etc/passwd', events: ['chat.handoff'] }), 'invalid_webhook_url', 'file url')
    refused(t, await admin('POST', '/admin/webhooks', { url: 'https://a:b@shop.example/', events: ['chat.handoff'] }), 'invalid_webhook_url', 'credentials in the url')
    refused(t, await admin('PATCH', `/admin/webhooks/${endpoint.id}`, {}), 'invalid_request', 'an empty change')
    refused(t, await admin('GET', `/admin/webhooks/${endpoint.id}/deliveries?limit=1000`), 'invalid_request', 'limit too large')
  })
})

t.test('without WEBHOOK_ALLOW_PRIVATE_NETWORKS internal URLs are refused when configured', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN })
  const shop = await h.tenant()
  for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://10.0.0.1/hook', 'http://192.168.0.10/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[fd00::1]/']) {
    const res = await app.inject({ method: 'POST', url: '/admin/webhooks', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }, payload: { url, events: ['chat.handoff'] } })
    t.equal(res.statusCode, 400, url)
    t.match(res.json(), { code: 'invalid_webhook_url', message: /internal address .*WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/ }, url)
  }
  // At most 20 endpoints a project: each event is one delivery per endpoint.
  const add = () => app.inject({ method: 'POST', url: '/admin/webhooks', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }, payload: { url: 'https://hooks.shop.example/', events: ['chat.handoff'] } })
  for (let i = 0; i < 20; i++) t.equal((await add()).statusCode, 201)
  const over = await add()
  t.equal(over.statusCode, 400)
  t.match(over.json(), { code: 'invalid_request', message: /at most 20 webhook endpoints/ })
  const key = await app.inject({ method: 'GET', url: '/admin/webhooks', headers: { authorization: `Bearer ${shop.key}`, 'x-project-id': shop.projectId } })
  t.equal(key.statusCode, 401, 'a project key is not the service token')
})
