import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  DeletedResponse, DocumentParams, DocumentsResponse, KnowledgeDocument, KnowledgeDocumentsBody, KnowledgeListQuery, KnowledgeListResponse,
  KnowledgeCrawlBody, KnowledgeSearchBody, KnowledgeSearchResponse, TaskAccepted, bodyErrors, errorResponses, idempotencyErrors, knowledgeLimits, searchErrors
} from '@chatsearch/contracts'
import { ApiError, integerQuery } from '@chatsearch/shell'
import { isUsableVector } from '@chatsearch/embeddings'
import type { ChunkHit, HybridQuery, StoredKnowledge } from '../engine/port.js'
import { processQuery, tokenize } from '../text.js'
import { ingestKnowledge } from '../knowledge/ingest.js'
import { knowledgePage } from '../knowledge/listing.js'
import { DocumentError } from '../ingest/validate.js'
import { acceptNdjson } from './ndjson.js'
import { isHttpUrl } from '../knowledge/http-url.js'
import { IMPORT_BODY_LIMIT } from './documents.js'

const elapsedMs = (started: number) => Math.round(performance.now() - started)
const notFound = (id: string) => new ApiError('document_not_found', `no knowledge document ${id} in this project`)

function documentOf (stored: StoredKnowledge): KnowledgeDocument {
  return {
    id: stored.id,
    kind: stored.kind,
    title: stored.title,
    url: stored.url ?? null,
    content: stored.content,
    chunks: stored.chunks.map((c) => ({ id: c.id, section: c.section, text: c.text, url: c.url ?? null })),
    updated_at: stored.updatedAt
  }
}

function hitOf (hit: ChunkHit) {
  return { document_id: hit.documentId, chunk_id: hit.chunkId, kind: hit.kind, title: hit.title, section: hit.section, url: hit.url ?? null, text: hit.text, score: hit.score }
}

/** The project's knowledge (spec/knowledge.md): documents added as JSON, listed, read, deleted and searched. */
export async function knowledgeRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  acceptNdjson(app, IMPORT_BODY_LIMIT)

  api.post('/knowledge/documents', {
    config: { rateLimit: 'catalog', idempotency: {} },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      operationId: 'addOrReplaceKnowledgeDocuments',
      tags: ['knowledge'],
      summary: 'Add or replace knowledge pages and question-and-answer pairs by id (JSON array or NDJSON)',
      consumes: ['application/json', 'application/x-ndjson'],
      body: KnowledgeDocumentsBody,
      response: { 200: DocumentsResponse, ...errorResponses(...bodyErrors, ...searchErrors.addOrReplaceKnowledgeDocuments, ...idempotencyErrors) }
    }
  }, async (request) => {
    try {
      return await ingestKnowledge(await app.engine.knowledge(request.principal.projectId), request.body, app.embedder)
    } catch (err) {
      if (err instanceof DocumentError) throw new ApiError('invalid_document', err.message)
      throw err
    }
  })

  api.get('/knowledge/documents', {
    config: { rateLimit: 'catalog' },
    preValidation: integerQuery('limit', 'offset'),
    schema: {
      operationId: 'listKnowledgeDocuments',
      tags: ['knowledge'],
      summary: 'The project\'s knowledge documents, by id',
      querystring: KnowledgeListQuery,
      response: { 200: KnowledgeListResponse, ...errorResponses(...searchErrors.listKnowledgeDocuments) }
    }
  }, async (request) => {
    const { kind, limit = knowledgeLimits.listLimitDefault, offset = 0 } = request.query
    return await knowledgePage(await app.engine.knowledge(request.principal.projectId), { limit, offset, kind })
  })

  api.get('/knowledge/documents/:id', {
    config: { rateLimit: 'catalog' },
    schema: {
      operationId: 'getKnowledgeDocument',
      tags: ['knowledge'],
      summary: 'One knowledge document with its chunks',
      params: DocumentParams,
      response: { 200: KnowledgeDocument, ...errorResponses(...searchErrors.getKnowledgeDocument) }
    }
  }, async (request) => {
    const stored = await (await app.engine.knowledge(request.principal.projectId)).get(request.params.id)
    if (stored === undefined) throw notFound(request.params.id)
    return documentOf(stored)
  })

  api.delete('/knowledge/documents/:id', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'deleteKnowledgeDocument',
      tags: ['knowledge'],
      summary: 'Remove a knowledge document and its chunks',
      params: DocumentParams,
      response: { 200: DeletedResponse, ...errorResponses(...bodyErrors, ...searchErrors.deleteKnowledgeDocument, ...idempotencyErrors) }
    }
  }, async (request) => {
    const removed = await (await app.engine.knowledge(request.principal.projectId)).remove(request.params.id)
    if (!removed) throw notFound(request.params.id)
    return { id: request.params.id, deleted: true as const }
  })

  api.post('/knowledge/crawl', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'crawlWebsite',
      tags: ['knowledge'],
      summary: 'Crawl a website into the project\'s knowledge, as a task',
      description: 'Answers 202 with a `crawl` task (see GET /tasks/{id}). The crawl stays on the URL\'s origin, obeys robots.txt and follows its sitemaps, then links; each page\'s main content is indexed with its canonical URL. A re-crawl of the same URL replaces its pages and removes those it no longer finds. Internal addresses are refused at every redirect hop unless the operator set CRAWL_ALLOW_PRIVATE_NETWORKS=true. A crawl fetches for at most CRAWL_MAX_MINUTES (60 by default): one out of time keeps what it stored, removes nothing and says `out_of_time: true` in its details. A project with TASKS_WAITING_MAX tasks waiting gets 429 `too_many_tasks`.',
      body: KnowledgeCrawlBody,
      response: { 202: TaskAccepted, ...errorResponses(...bodyErrors, ...searchErrors.crawlWebsite, ...idempotencyErrors) }
    }
  }, async (request, reply) => {
    // The schema's pattern sees the scheme only; a URL the crawler cannot parse is refused here, not by a failed task.
    if (!isHttpUrl(request.body.url)) throw new ApiError('invalid_request', 'url must be an http or https URL that parses, with a host ("https://" or a port over 65535 is none)')
    const task = await app.tasks.enqueue(request.principal.projectId, 'crawl', request.body)
    return await reply.code(202).send({ task_id: task.id })
  })

  api.post('/knowledge/search', {
    config: { rateLimit: 'search' },
    schema: {
      operationId: 'searchKnowledge',
      tags: ['knowledge'],
      summary: 'Hybrid (or keyword) search of the project\'s knowledge: the best chunks with their section and link',
      body: KnowledgeSearchBody,
      response: { 200: KnowledgeSearchResponse, ...errorResponses(...bodyErrors, ...searchErrors.searchKnowledge) }
    }
  }, async (request): Promise<KnowledgeSearchResponse> => {
    const started = performance.now()
    const body = request.body
    const query = processQuery(body.query)
    if (body.search_type === 'hybrid' && app.embedder === undefined) {
      throw new ApiError('hybrid_search_disabled', 'hybrid search is switched off on this server (EMBEDDINGS=false); search with search_type keyword')
    }
    const index = await app.engine.knowledge(request.principal.projectId)
    let hybrid: HybridQuery | undefined
    // Hybrid unless asked otherwise, when there is a word to embed (see routes/search.ts).
    if (body.search_type !== 'keyword' && app.queryVectors !== undefined && tokenize(query).length > 0) {
      const vector = await app.queryVectors.vector(query)
      if (isUsableVector(vector)) hybrid = { semanticRatio: body.semantic_ratio ?? knowledgeLimits.semanticRatioDefault, vector }
    }
    const hits = await index.search({ q: query, limit: body.limit ?? knowledgeLimits.searchLimitDefault, ...(hybrid === undefined ? {} : { hybrid }) })
    return { hits: hits.map(hitOf), query, processingTimeMs: elapsedMs(started) }
  })
}
