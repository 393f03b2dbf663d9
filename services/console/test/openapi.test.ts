import t from 'tap'
import { openApiProblems } from '@chatsearch/testkit/openapi-check'
import { harness } from './helpers.js'

t.test('the OpenAPI document describes every console route completely', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  t.same(await openApiProblems(app, {
    idempotent: [],
    streams: ['POST /api/projects/{project_id}/playground/chat'],
    session: { cookie: 'console_session', csrfHeader: 'X-CSRF-Token' }
  }), [])

  const doc = (await app.inject('/openapi.json')).json()
  t.same(doc.components.securitySchemes, { session: { type: 'apiKey', in: 'cookie', name: 'console_session', description: doc.components.securitySchemes.session.description } })
  t.same(doc.paths['/api/session'].post.security, [], 'signing in needs no session')
  const operationIds = Object.fromEntries(Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId])))
  t.same(operationIds, {
    'GET /healthz': 'liveness',
    'GET /readyz': 'readiness',
    'POST /api/session': 'signIn',
    'GET /api/session': 'getSession',
    'DELETE /api/session': 'signOut',
    'GET /api/projects': 'listProjects',
    'POST /api/projects': 'createProject',
    'GET /api/projects/{project_id}': 'getProject',
    'PATCH /api/projects/{project_id}': 'renameProject',
    'GET /api/projects/{project_id}/members': 'listMembers',
    'POST /api/projects/{project_id}/members': 'addMember',
    'DELETE /api/projects/{project_id}/members/{username}': 'removeMember',
    'GET /api/projects/{project_id}/credentials': 'listCredentials',
    'POST /api/projects/{project_id}/credentials': 'issueCredential',
    'DELETE /api/projects/{project_id}/credentials/{credential_id}': 'revokeCredential',
    'GET /api/projects/{project_id}/widget': 'readWidgetSettings',
    'POST /api/projects/{project_id}/widget/identity-secret': 'rotateIdentitySecret',
    'GET /api/projects/{project_id}/tasks': 'listTasks',
    'GET /api/projects/{project_id}/tasks/{id}': 'getTask',
    'POST /api/projects/{project_id}/tasks/{id}/cancel': 'cancelTask',
    'POST /api/projects/{project_id}/search': 'search',
    'POST /api/projects/{project_id}/autocomplete': 'autocomplete',
    'POST /api/projects/{project_id}/facet-search': 'facetSearch',
    'GET /api/projects/{project_id}/suggestions/candidates': 'listSuggestionCandidates',
    'GET /api/projects/{project_id}/settings': 'getSettings',
    'PUT /api/projects/{project_id}/settings': 'replaceSettings',
    'GET /api/projects/{project_id}/rules': 'getRules',
    'PUT /api/projects/{project_id}/rules': 'replaceRules',
    'GET /api/projects/{project_id}/documents/{id}': 'getDocument',
    'DELETE /api/projects/{project_id}/documents/{id}': 'deleteDocument',
    'GET /api/projects/{project_id}/knowledge/documents': 'listKnowledgeDocuments',
    'POST /api/projects/{project_id}/knowledge/documents': 'addOrReplaceKnowledgeDocuments',
    'GET /api/projects/{project_id}/knowledge/documents/{id}': 'getKnowledgeDocument',
    'DELETE /api/projects/{project_id}/knowledge/documents/{id}': 'deleteKnowledgeDocument',
    'POST /api/projects/{project_id}/knowledge/crawl': 'crawlWebsite',
    'POST /api/projects/{project_id}/catalog': 'importCatalog',
    'POST /api/projects/{project_id}/knowledge/files': 'uploadKnowledgeFiles',
    'GET /api/projects/{project_id}/chats': 'listChats',
    'GET /api/projects/{project_id}/chats/export': 'exportChats',
    'GET /api/projects/{project_id}/chats/{chat_id}': 'readChat',
    'DELETE /api/projects/{project_id}/chats/{chat_id}': 'deleteChat',
    'POST /api/projects/{project_id}/chats/{chat_id}/answer': 'answerChat',
    'POST /api/projects/{project_id}/playground/chat': 'playgroundChat',
    'GET /api/projects/{project_id}/analytics': 'getAnalytics',
    'GET /api/projects/{project_id}/webhooks': 'listWebhooks',
    'POST /api/projects/{project_id}/webhooks': 'createWebhook',
    'PATCH /api/projects/{project_id}/webhooks/{webhook_id}': 'updateWebhook',
    'DELETE /api/projects/{project_id}/webhooks/{webhook_id}': 'deleteWebhook',
    'POST /api/projects/{project_id}/webhooks/{webhook_id}/secret': 'rotateWebhookSecret',
    'POST /api/projects/{project_id}/webhooks/{webhook_id}/test': 'testWebhook',
    'GET /api/projects/{project_id}/webhooks/{webhook_id}/deliveries': 'listWebhookDeliveries',
    'POST /api/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry': 'retryWebhookDelivery'
  }, 'every /api route; the web app, /openapi.json, /docs and /metrics are left out')

  const search = doc.paths['/api/projects/{project_id}/search'].post
  t.equal(search.requestBody.content['application/json'].schema.properties.search_term.type, 'string', 'the forward documents the search service\'s own body')
  t.same(Object.keys(doc.paths['/api/projects/{project_id}/catalog'].post.requestBody.content), ['application/json', 'application/x-ndjson', 'text/csv'])

  const page = await app.inject('/docs/')
  t.equal(page.statusCode, 200)
  t.match(String(page.headers['content-security-policy']), /script-src[^;]*'self'/, 'the console\'s policy does not leave the page blank')
})
