import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CatalogDocument, CatalogSettings, DeletedResponse, DocumentParams, DocumentsBody, DocumentsResponse, bodyErrors, errorResponses, idempotencyErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { ingestDocuments } from '../ingest/documents.js'
import { DocumentError } from '../ingest/validate.js'
import type { EngineIndex } from '../engine/port.js'
import { acceptNdjson } from './ndjson.js'

/** Catalog and knowledge imports are the one place bodies may exceed 1 MiB; the CLI sends batches well below this. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024

const notFound = (id: string) => new ApiError('document_not_found', `no document ${id} in this catalog`)

export async function documentRoutes (app: FastifyInstance) {
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
      consumes: ['application/json', 'application/x-ndjson'],
      body: DocumentsBody,
      response: { 200: DocumentsResponse, ...errorResponses(...bodyErrors, 'invalid_document', ...idempotencyErrors) }
    }
  }, async (request) => {
    try {
      return await changing(request.principal.projectId, (index) => ingestDocuments(index, request.body, app.embedder))
    } catch (err) {
      if (err instanceof DocumentError) throw new ApiError('invalid_document', err.message)
      throw err
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
