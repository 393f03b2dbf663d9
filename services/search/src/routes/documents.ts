import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CatalogDocument, CatalogSettings, DeletedResponse, DocumentParams, DocumentsBody, DocumentsResponse, TaskAccepted, bodyErrors, errorResponses, idempotencyErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { ingestDocuments } from '../ingest/documents.js'
import { DocumentError, validateBatch } from '../ingest/validate.js'
import type { EngineIndex } from '../engine/port.js'
import { acceptNdjson } from './ndjson.js'
import type { CatalogImportPayload } from '../tasks/catalog-import.js'

/** Catalog and knowledge imports are the one place bodies may exceed 1 MiB; the CLI sends batches well below this. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024

const notFound = (id: string) => new ApiError('document_not_found', `no document ${id} in this catalog`)

/** Above either bound, POST /documents answers 202 and imports the batch as a task. */
export interface CatalogTaskThreshold {
  /** Items in the body. */
  items: number
  /** Bytes of the body, as its Content-Length says. */
  bytes: number
}

/** 10,000 items take about 90 s to embed with the bundled model; 8 MiB is several times that in JSON. */
export const CATALOG_TASK_DEFAULT: CatalogTaskThreshold = { items: 10_000, bytes: 8 * 1024 * 1024 }

/** A DocumentError as the API's 400, anything else as it is. */
function asApiError (err: unknown): unknown {
  return err instanceof DocumentError ? new ApiError('invalid_document', err.message) : err
}

export async function documentRoutes (app: FastifyInstance, options: { catalogTask: CatalogTaskThreshold }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  /**
   * Runs a catalog change, then ends the project's cached search responses, also after a failure:
   * a batch, a removal or new settings may be partly applied before the engine fails.
   */
  const changing = async <T>(projectId: string, change: (index: EngineIndex) => Promise<T>): Promise<T> => {
    try {
      return await change(await app.engine.index(projectId))
    } finally {
      await app.searchCache.bump(projectId)
    }
  }
  acceptNdjson(app, IMPORT_BODY_LIMIT)

  api.post('/documents', {
    config: { rateLimit: 'catalog', idempotency: {} },
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: {
      operationId: 'addOrReplaceDocuments',
      tags: ['catalog'],
      summary: 'Add or replace catalog items by id (JSON array or NDJSON)',
      description: `Answers 200 once the batch is indexed, or 202 with a \`catalog_import\` task (see GET /tasks/{id}) when the body holds more than ${options.catalogTask.items} items or ${options.catalogTask.bytes} bytes. Either way the batch is checked whole first: a bad item answers 400 and nothing is written.`,
      consumes: ['application/json', 'application/x-ndjson'],
      body: DocumentsBody,
      response: { 200: DocumentsResponse, 202: TaskAccepted, ...errorResponses(...bodyErrors, 'invalid_document', ...idempotencyErrors) }
    }
  }, async (request, reply) => {
    const { projectId } = request.principal
    const bytes = Number(request.headers['content-length'] ?? 0)
    try {
      if (request.body.length <= options.catalogTask.items && bytes <= options.catalogTask.bytes) {
        return await changing(projectId, (index) => ingestDocuments(index, request.body, app.embedder))
      }
      const payload: CatalogImportPayload = { received: request.body.length, documents: validateBatch(request.body) }
      const task = await app.tasks.enqueue(projectId, 'catalog_import', payload)
      return await reply.code(202).send({ task_id: task.id })
    } catch (err) {
      throw asApiError(err)
    }
  })

  api.get('/documents/:id', {
    config: { rateLimit: 'catalog' },
    schema: { operationId: 'getDocument', tags: ['catalog'], summary: 'One catalog item', params: DocumentParams, response: { 200: CatalogDocument, ...errorResponses('document_not_found') } }
  }, async (request) => {
    const document = await (await app.engine.index(request.principal.projectId)).get(request.params.id)
    if (document === undefined) throw notFound(request.params.id)
    return document
  })

  api.delete('/documents/:id', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'deleteDocument',
      tags: ['catalog'],
      summary: 'Remove a catalog item',
      params: DocumentParams,
      response: { 200: DeletedResponse, ...errorResponses(...bodyErrors, 'document_not_found', ...idempotencyErrors) }
    }
  }, async (request) => {
    const removed = await changing(request.principal.projectId, (index) => index.remove(request.params.id))
    if (!removed) throw notFound(request.params.id)
    return { id: request.params.id, deleted: true as const }
  })

  api.get('/settings', {
    config: { rateLimit: 'catalog' },
    schema: { operationId: 'getSettings', tags: ['catalog'], summary: 'Index settings of the catalog', response: { 200: CatalogSettings, ...errorResponses() } }
  }, async (request) => await (await app.engine.index(request.principal.projectId)).settings())

  api.put('/settings', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'replaceSettings',
      tags: ['catalog'],
      summary: 'Replace the index settings; the catalog is re-indexed with them',
      body: CatalogSettings,
      response: { 200: CatalogSettings, ...errorResponses('missing_parameters', ...bodyErrors, ...idempotencyErrors) }
    }
  }, async (request) => await changing(request.principal.projectId, (index) => index.updateSettings(request.body)))
}
