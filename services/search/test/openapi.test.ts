import t from 'tap'
import { openApiProblems } from '@chatsearch/testkit/openapi-check'
import { searchHarness } from './helpers.js'

t.test('the OpenAPI document describes every route completely', async (t) => {
  const h = await searchHarness(t, false)
  t.same(await openApiProblems(h.app, {
    idempotent: ['POST /documents', 'DELETE /documents/{id}', 'PUT /settings', 'PUT /rules', 'POST /events', 'POST /knowledge/documents', 'DELETE /knowledge/documents/{id}', 'POST /knowledge/crawl'],
    streams: []
  }), [])

  const doc = (await h.app.inject('/openapi.json')).json()
  const operationIds = Object.fromEntries(Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId])))
  t.same(operationIds, {
    'POST /search': 'search',
    'POST /autocomplete': 'autocomplete',
    'POST /facet-search': 'facetSearch',
    'GET /suggestions/candidates': 'listSuggestionCandidates',
    'POST /events': 'recordEvents',
    'POST /documents': 'addOrReplaceDocuments',
    'GET /documents/{id}': 'getDocument',
    'DELETE /documents/{id}': 'deleteDocument',
    'GET /settings': 'getSettings',
    'PUT /settings': 'replaceSettings',
    'GET /rules': 'getRules',
    'PUT /rules': 'replaceRules',
    'POST /knowledge/documents': 'addOrReplaceKnowledgeDocuments',
    'GET /knowledge/documents': 'listKnowledgeDocuments',
    'GET /knowledge/documents/{id}': 'getKnowledgeDocument',
    'DELETE /knowledge/documents/{id}': 'deleteKnowledgeDocument',
    'POST /knowledge/search': 'searchKnowledge',
    'POST /knowledge/crawl': 'crawlWebsite',
    'POST /knowledge/files': 'uploadKnowledgeFiles',
    'GET /tasks/{id}': 'getTask',
    'POST /tasks/{id}/cancel': 'cancelTask',
    'GET /tasks': 'listTasks',
    'GET /admin/analytics': 'adminSearchAnalytics',
    'GET /healthz': 'liveness',
    'GET /readyz': 'readiness'
  }, 'the spec\'s names (and the console\'s admin route); /metrics is deliberately left out')
  t.same(Object.keys(doc.paths['/documents'].post.requestBody.content), ['application/json', 'application/x-ndjson'])
  t.same(Object.keys(doc.paths['/knowledge/documents'].post.requestBody.content), ['application/json', 'application/x-ndjson'])
})
