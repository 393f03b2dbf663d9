import t from 'tap'
import { openApiProblems } from '@chatsearch/testkit/openapi-check'
import { harness } from './helpers.js'

t.test('the OpenAPI document describes every route completely', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  t.same(await openApiProblems(app, { idempotent: ['POST /newUserMessage', 'POST /feedback'], streams: ['POST /newUserMessage'] }), [])

  const doc = (await app.inject('/openapi.json')).json()
  const operationIds = Object.fromEntries(Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId])))
  t.same(operationIds, {
    'POST /newUserMessage': 'newUserMessage',
    'GET /readConversation': 'readConversation',
    'GET /listAllProjectChats': 'listAllProjectChats',
    'GET /listAllProjectConsumerChats': 'listAllProjectConsumerChats',
    'GET /latestConsumerChatId': 'latestConsumerChatId',
    'POST /feedback': 'feedback',
    'OPTIONS /newUserMessage': 'preflightNewUserMessage',
    'OPTIONS /readConversation': 'preflightReadConversation',
    'OPTIONS /latestConsumerChatId': 'preflightLatestConsumerChatId',
    'OPTIONS /feedback': 'preflightFeedback',
    'GET /widget/v1/loader.js': 'widgetLoader',
    'GET /widget/v1/panel.js': 'widgetPanel',
    'GET /healthz': 'liveness',
    'GET /readyz': 'readiness',
    'POST /admin/chats/{chat_id}/answer': 'adminAnswerChat',
    'GET /admin/chats': 'adminListChats',
    'GET /admin/chats/export': 'adminExportChats',
    'GET /admin/chats/{chat_id}': 'adminReadChat',
    'DELETE /admin/chats/{chat_id}': 'adminDeleteChat',
    'GET /admin/analytics': 'adminChatAnalytics',
    'GET /admin/webhooks': 'adminListWebhooks',
    'POST /admin/webhooks': 'adminCreateWebhook',
    'PATCH /admin/webhooks/{webhook_id}': 'adminUpdateWebhook',
    'DELETE /admin/webhooks/{webhook_id}': 'adminDeleteWebhook',
    'POST /admin/webhooks/{webhook_id}/secret': 'adminRotateWebhookSecret',
    'POST /admin/webhooks/{webhook_id}/test': 'adminTestWebhook',
    'GET /admin/webhooks/{webhook_id}/deliveries': 'adminListWebhookDeliveries',
    'POST /admin/webhooks/{webhook_id}/deliveries/{delivery_id}/retry': 'adminRetryWebhookDelivery'
  }, 'the spec\'s names (and the console\'s admin routes, and the widget routes\' preflights); /metrics is deliberately left out')
  // The team's transcript and export describe each message's decision; the shopper's routes have none.
  const json = (path: string, method: string, status = '200') => doc.paths[path][method].responses[status].content['application/json'].schema
  const adminMessage = json('/admin/chats/{chat_id}', 'get').properties.messages.items
  t.same(Object.keys(adminMessage.properties.decision.properties), ['route', 'handoff_reason', 'evidence'], 'the admin transcript shows the decision')
  t.same(Object.keys(adminMessage.properties.decision.properties.evidence.items.properties), ['source', 'reference', 'score', 'used'])
  t.notOk(adminMessage.required.includes('decision'), 'optional: a team member\'s answer has none')
  t.ok(json('/admin/chats/export', 'get').items.properties.messages.items.properties.decision, 'the JSON export too')
  t.same(Object.keys(adminMessage.properties.feedback.properties), ['rating', 'comment', 'rated_at'], 'and the customer\'s rating')
  t.notOk(adminMessage.required.includes('feedback'), 'optional: most messages have none')
  const feedback = doc.paths['/feedback'].post
  t.same(feedback.requestBody.content['application/json'].schema.required, ['chat_id', 'msg_id', 'rating'])
  t.same(feedback.responses['404'].content['application/json'].schema.properties.code.enum, ['chat_not_found', 'message_not_found'])
  const analytics = json('/admin/analytics', 'get').properties
  t.same(Object.keys(analytics.feedback.properties), ['up', 'down', 'ratio'])
  t.same(Object.keys(analytics).filter((k) => !['days', 'chats_per_day', 'classifications', 'handoff', 'feedback'].includes(k)),
    ['resolution', 'team_answer', 'unanswered', 'top_cited'], 'issue 29\'s figures: resolution, the team\'s answer time, unanswered questions, sources cited most')
  const publicMessage = json('/readConversation', 'get').items
  t.same(Object.keys(publicMessage.properties), ['msg_id', 'role', 'content', 'timestamp', 'classification', 'citations', 'author'], 'readConversation: no decision, no rating')
  t.equal(publicMessage.additionalProperties, false)
  t.notOk('decision' in json('/newUserMessage', 'post').properties, 'newUserMessage: no decision')
  t.notOk('decision' in json('/admin/chats/{chat_id}/answer', 'post', '201').properties, 'a team member\'s answer: no decision')

  const events = doc.paths['/newUserMessage'].post.responses['200'].content['text/event-stream'].schema.anyOf
  t.same(events.map((e: { properties: { event: { enum: string[] } } }) => e.properties.event.enum[0]), ['delta', 'reset', 'done', 'error'])
})
