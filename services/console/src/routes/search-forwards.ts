import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify'
import { Type, type TSchema } from 'typebox'
import {
  AutocompleteBody, AutocompleteResponse, CatalogDocument, CatalogSettings, DeletedResponse, DocumentParams, DocumentsBody, DocumentsResponse, FacetSearchBody, FacetSearchResponse, KnowledgeCrawlBody,
  KnowledgeDocument, KnowledgeDocumentsBody, KnowledgeFilesBody, KnowledgeListQuery, KnowledgeListResponse, ProjectParams, SearchBody, SearchResponse, SearchRulesBody, SearchRulesResponse,
  SuggestionCandidatesQuery, SuggestionCandidatesResponse, Task, TaskAccepted, TaskList, TaskListQuery, TaskParams, bodyErrors, knowledgeLimits, searchErrors, sessionErrorResponses,
  type ErrorCode
} from '@chatsearch/contracts'
import { utf8Text } from '@chatsearch/shell'
import { catalogItemsOfCsv } from '../catalog-csv.js'
import { forwarded, pathSegment, queryOf, type UpstreamCall, type Upstream } from '../upstream.js'

/** As the search service's POST /documents allows. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024
/** The files the search service's POST /knowledge/files accepts together, and room for the form around them. */
const FILES_BODY_LIMIT = knowledgeLimits.filesTotalBytesMax + 1024 * 1024

type Params = Record<string, string>

/** The project of the path and an id of the service's (a task, a catalog item, a knowledge document). */
const IdParams = (id: TSchema) => Type.Object({ ...ProjectParams.properties, id })
/** What a forward to the search service can answer besides the operation's own codes (searchErrors): the console's, and the service's rate limit. */
const forwardErrors = (...codes: ErrorCode[]) => sessionErrorResponses('project_not_found', 'rate_limited', ...codes)
const changeErrors = (...codes: ErrorCode[]) => forwardErrors(...bodyErrors, 'csrf_failed', ...codes)
const ndjsonOrCsv = (what: string) => Type.String({ description: what })

/**
 * Catalog, knowledge, tasks and search of a project: thin forwards to the search service's own
 * routes with the service token (decision 15), its answers passed on as they are. Each is
 * documented with the service's contract schemas (the service validates, see `forwarded`).
 */
export async function searchForwards (app: FastifyInstance, opts: { search: Upstream }) {
  const { search } = opts
  const relay = (request: FastifyRequest, reply: Parameters<Upstream['relay']>[1], call: UpstreamCall) =>
    search.relay(request, reply, request.member.projectId, call)
  const simple = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, upstreamPath: (p: Params) => string, schema: FastifySchema) => {
    app.route({
      method,
      url: `/api/projects/:project_id${path}`,
      ...forwarded,
      schema: { params: ProjectParams, ...schema },
      handler: async (request, reply) => await relay(request, reply, {
        method,
        path: upstreamPath(request.params as Params),
        query: queryOf(request),
        ...(method === 'POST' || method === 'PUT' ? { body: request.body ?? {} } : {})
      })
    })
  }
  const id = (p: Params) => pathSegment(p.id ?? '')

  simple('GET', '/tasks', () => '/tasks', {
    operationId: 'listTasks',
    tags: ['tasks'],
    summary: 'The project\'s tasks (catalog imports, crawls, file uploads), newest first: GET /tasks of the search service',
    querystring: TaskListQuery,
    response: { 200: TaskList, ...forwardErrors(...searchErrors.listTasks) }
  })
  simple('GET', '/tasks/:id', (p) => `/tasks/${id(p)}`, {
    operationId: 'getTask',
    tags: ['tasks'],
    summary: 'One task of the project: its status, progress and outcome (GET /tasks/{id})',
    params: IdParams(TaskParams.properties.id),
    response: { 200: Task, ...forwardErrors(...searchErrors.getTask) }
  })
  simple('POST', '/tasks/:id/cancel', (p) => `/tasks/${id(p)}/cancel`, {
    operationId: 'cancelTask',
    tags: ['tasks'],
    summary: 'Cancels a task that has not ended; what it had done stays (POST /tasks/{id}/cancel)',
    params: IdParams(TaskParams.properties.id),
    response: { 200: Task, ...changeErrors(...searchErrors.cancelTask) }
  })
  simple('POST', '/search', () => '/search', {
    operationId: 'search',
    tags: ['search'],
    summary: 'Search the project catalog, as POST /search of the search service',
    body: SearchBody,
    response: { 200: SearchResponse, ...changeErrors(...searchErrors.search) }
  })
  simple('POST', '/facet-search', () => '/facet-search', {
    operationId: 'facetSearch',
    tags: ['search'],
    summary: 'Values of one facet that begin with a query, as POST /facet-search of the search service',
    body: FacetSearchBody,
    response: { 200: FacetSearchResponse, ...changeErrors(...searchErrors.facetSearch) }
  })
  simple('POST', '/autocomplete', () => '/autocomplete', {
    operationId: 'autocomplete',
    tags: ['search'],
    summary: 'Suggestions for a partial search term, as POST /autocomplete',
    body: AutocompleteBody,
    response: { 200: AutocompleteResponse, ...changeErrors(...searchErrors.autocomplete) }
  })
  simple('GET', '/suggestions/candidates', () => '/suggestions/candidates', {
    operationId: 'listSuggestionCandidates',
    tags: ['search'],
    summary: 'The catalog\'s popular searches, the most searched first, and whether autocomplete suggests each (GET /suggestions/candidates)',
    querystring: SuggestionCandidatesQuery,
    response: { 200: SuggestionCandidatesResponse, ...forwardErrors(...searchErrors.listSuggestionCandidates) }
  })
  simple('GET', '/settings', () => '/settings', {
    operationId: 'getSettings',
    tags: ['catalog'],
    summary: 'Index settings of the project catalog (GET /settings)',
    response: { 200: CatalogSettings, ...forwardErrors(...searchErrors.getSettings) }
  })
  simple('PUT', '/settings', () => '/settings', {
    operationId: 'replaceSettings',
    tags: ['catalog'],
    summary: 'Replace the index settings; the catalog is re-indexed with them, unless only autocomplete\'s rules changed (PUT /settings)',
    body: CatalogSettings,
    response: { 200: CatalogSettings, ...changeErrors(...searchErrors.replaceSettings) }
  })
  simple('GET', '/rules', () => '/rules', {
    operationId: 'getRules',
    tags: ['rules'],
    summary: 'The project\'s search rules, in precedence order (GET /rules of the search service)',
    response: { 200: SearchRulesResponse, ...forwardErrors(...searchErrors.getRules) }
  })
  simple('PUT', '/rules', () => '/rules', {
    operationId: 'replaceRules',
    tags: ['rules'],
    summary: 'Replace the project\'s search rules with this list (PUT /rules of the search service)',
    body: SearchRulesBody,
    response: { 200: SearchRulesResponse, ...changeErrors(...searchErrors.replaceRules) }
  })
  simple('DELETE', '/documents/:id', (p) => `/documents/${id(p)}`, {
    operationId: 'deleteDocument',
    tags: ['catalog'],
    summary: 'Remove a catalog item (DELETE /documents/{id})',
    params: IdParams(DocumentParams.properties.id),
    response: { 200: DeletedResponse, ...changeErrors(...searchErrors.deleteDocument) }
  })
  simple('GET', '/knowledge/documents', () => '/knowledge/documents', {
    operationId: 'listKnowledgeDocuments',
    tags: ['knowledge'],
    summary: 'The project\'s knowledge documents, by id (GET /knowledge/documents)',
    querystring: KnowledgeListQuery,
    response: { 200: KnowledgeListResponse, ...forwardErrors(...searchErrors.listKnowledgeDocuments) }
  })
  simple('POST', '/knowledge/documents', () => '/knowledge/documents', {
    operationId: 'addOrReplaceKnowledgeDocuments',
    tags: ['knowledge'],
    summary: 'Add or replace knowledge pages and question-and-answer pairs by id (POST /knowledge/documents, JSON)',
    body: KnowledgeDocumentsBody,
    response: { 200: DocumentsResponse, ...changeErrors(...searchErrors.addOrReplaceKnowledgeDocuments) }
  })
  simple('GET', '/knowledge/documents/:id', (p) => `/knowledge/documents/${id(p)}`, {
    operationId: 'getKnowledgeDocument',
    tags: ['knowledge'],
    summary: 'One knowledge document as stored: a page\'s text and chunks, or a pair\'s question and answer (GET /knowledge/documents/{id})',
    params: IdParams(DocumentParams.properties.id),
    response: { 200: KnowledgeDocument, ...forwardErrors(...searchErrors.getKnowledgeDocument) }
  })
  simple('GET', '/documents/:id', (p) => `/documents/${id(p)}`, {
    operationId: 'getDocument',
    tags: ['catalog'],
    summary: 'One catalog item as stored (GET /documents/{id})',
    params: IdParams(DocumentParams.properties.id),
    response: { 200: CatalogDocument, ...forwardErrors(...searchErrors.getDocument) }
  })
  simple('DELETE', '/knowledge/documents/:id', (p) => `/knowledge/documents/${id(p)}`, {
    operationId: 'deleteKnowledgeDocument',
    tags: ['knowledge'],
    summary: 'Remove a knowledge document and its chunks (DELETE /knowledge/documents/{id})',
    params: IdParams(DocumentParams.properties.id),
    response: { 200: DeletedResponse, ...changeErrors(...searchErrors.deleteKnowledgeDocument) }
  })
  simple('POST', '/knowledge/crawl', () => '/knowledge/crawl', {
    operationId: 'crawlWebsite',
    tags: ['knowledge'],
    summary: 'Crawl a website into the project\'s knowledge, as a task (POST /knowledge/crawl)',
    body: KnowledgeCrawlBody,
    response: { 202: TaskAccepted, ...changeErrors(...searchErrors.crawlWebsite) }
  })

  // A catalog as JSON (an array), NDJSON, or CSV converted to a JSON array here.
  await app.register(async (catalog) => {
    catalog.addContentTypeParser(['application/x-ndjson', 'text/csv'], { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (request, body, done) => {
      try {
        done(null, utf8Text(request.headers['content-type'], body as Buffer))
      } catch (err) {
        done(err as Error)
      }
    })
    catalog.post('/api/projects/:project_id/catalog', {
      bodyLimit: IMPORT_BODY_LIMIT,
      ...forwarded,
      schema: {
        operationId: 'importCatalog',
        tags: ['catalog'],
        summary: 'Add or replace catalog items by id: a JSON array, NDJSON, or CSV (POST /documents of the search service)',
        description: 'CSV\'s first line names the fields, each once and none `__proto__`; its cells become numbers and booleans where they read as such, text otherwise, and the items are sent on as a JSON array. Answers 200 once the batch is indexed, or 202 with a `catalog_import` task (see GET …/tasks/{id}) for a large batch; a bad item (or a CSV that does not parse) answers 400 `invalid_document` and nothing is written.',
        params: ProjectParams,
        body: {
          content: {
            'application/json': { schema: DocumentsBody },
            'application/x-ndjson': { schema: ndjsonOrCsv('One catalog item (a JSON object) per line') },
            'text/csv': { schema: ndjsonOrCsv('A header line naming the fields, then one catalog item per line') }
          }
        },
        response: { 200: DocumentsResponse, 202: TaskAccepted, ...changeErrors(...searchErrors.addOrReplaceDocuments) }
      }
    }, async (request, reply) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
      const call: UpstreamCall = type === 'application/x-ndjson'
        ? { method: 'POST', path: '/documents', body: request.body as string, contentType: 'application/x-ndjson' }
        : { method: 'POST', path: '/documents', body: type === 'text/csv' ? catalogItemsOfCsv(request.body as string) : request.body }
      return await relay(request, reply, call)
    })
  })

  // Files stream through untouched: the search service reads and checks the parts.
  await app.register(async (files) => {
    files.addContentTypeParser('multipart/form-data', { bodyLimit: FILES_BODY_LIMIT }, (_request, payload, done) => { done(null, payload) })
    files.post('/api/projects/:project_id/knowledge/files', {
      bodyLimit: FILES_BODY_LIMIT,
      ...forwarded,
      schema: {
        operationId: 'uploadKnowledgeFiles',
        tags: ['knowledge'],
        summary: 'Upload help files (Markdown, HTML, text, PDF) into the project\'s knowledge, as a task (POST /knowledge/files of the search service)',
        description: 'The parts stream through to the search service untouched; it answers 202 with a `files` task (see GET …/tasks/{id}), or refuses the upload whole.',
        consumes: ['multipart/form-data'],
        params: ProjectParams,
        body: KnowledgeFilesBody,
        response: { 202: TaskAccepted, ...changeErrors(...searchErrors.uploadKnowledgeFiles) }
      }
    }, async (request, reply) => {
      const length = request.headers['content-length']
      // Anything but multipart reaches the service as JSON, which tells the browser what it wants.
      if (!(request.body instanceof Readable)) return await relay(request, reply, { method: 'POST', path: '/knowledge/files', body: request.body ?? {} })
      return await relay(request, reply, {
        method: 'POST',
        path: '/knowledge/files',
        body: request.body,
        contentType: request.headers['content-type']!,
        ...(length === undefined ? {} : { headers: { 'content-length': length } })
      })
    })
  })
}
