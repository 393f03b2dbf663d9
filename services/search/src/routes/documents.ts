import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CatalogDocument, CatalogSettings, DeletedResponse, DocumentParams, DocumentsBody, DocumentsResponse, TaskAccepted, bodyErrors, errorResponses, idempotencyErrors, searchErrors } from '@chatsearch/contracts'
import { ApiError, checkUtf8 } from '@chatsearch/shell'
import { ingestBatch } from '../ingest/documents.js'
import { BatchError } from '../ingest/batch.js'
import { queueBatchOnThread } from '../ingest/batch-thread.js'
import { DocumentError } from '../ingest/validate.js'
import type { EngineIndex, RawBatch } from '../engine/port.js'
import { wordSettingsProblem } from '../engine/query-terms.js'

/** Catalog and knowledge imports are the one place bodies may exceed 1 MiB; the CLI sends batches well below this. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024

const notFound = (id: string) => new ApiError('document_not_found', `no document ${id} in this catalog`)

/** Above either bound, POST /documents answers 202 and imports the batch as a task. */
export interface CatalogTaskThreshold {
  /** Items in the body. */
  items: number
  /** Bytes of the body. */
  bytes: number
}

/** 10,000 items take about 90 s to embed with the bundled model; 8 MiB is several times that in JSON. */
export const CATALOG_TASK_DEFAULT: CatalogTaskThreshold = { items: 10_000, bytes: 8 * 1024 * 1024 }

/** A refused batch as the API's 400, anything else as it is. */
function asApiError (err: unknown): unknown {
  if (err instanceof DocumentError) return new ApiError('invalid_document', err.message)
  if (err instanceof BatchError) return new ApiError(err.code, err.message)
  return err
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
  // POST /documents takes its body as bytes (see RawBatch): in a context of its own, so that the
  // other routes keep the shared JSON parser.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers()
    for (const [type, format] of [['application/json', 'json'], ['application/x-ndjson', 'ndjson']] as const) {
      raw.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (request, bytes, done) => {
        try {
          checkUtf8(request.headers['content-type'], bytes as Buffer)
        } catch (err) {
          done(err as Error)
          return
        }
        done(null, { format, bytes: bytes as Buffer } satisfies RawBatch)
      })
    }
    raw.withTypeProvider<TypeBoxTypeProvider>().post('/documents', {
      config: { rateLimit: 'catalog', idempotency: {} },
      bodyLimit: IMPORT_BODY_LIMIT,
      // The body is checked against DocumentsBody where it is parsed (parseBatch), with the same
      // messages; the schema stays here for the OpenAPI documents.
      validatorCompiler: () => () => true,
      schema: {
        operationId: 'addOrReplaceDocuments',
        tags: ['catalog'],
        summary: 'Add or replace catalog items by id (JSON array or NDJSON)',
        description: `Answers 200 once the batch is indexed, or 202 with a \`catalog_import\` task (see GET /tasks/{id}) when the body holds more than ${options.catalogTask.items} items or ${options.catalogTask.bytes} bytes. Either way the batch is checked whole first: a bad item answers 400 and nothing is written. The fields a search hit types (title, description, category and brand strings, price and rating numbers, in_stock a boolean) must hold that type or null.`,
        consumes: ['application/json', 'application/x-ndjson'],
        body: DocumentsBody,
        response: { 200: DocumentsResponse, 202: TaskAccepted, ...errorResponses(...bodyErrors, ...searchErrors.addOrReplaceDocuments, ...idempotencyErrors) }
      }
    }, async (request, reply) => {
      const { projectId } = request.principal
      // No body at all (no Content-Type to pick a parser) is an empty JSON body.
      const batch = (request.body as unknown as RawBatch | undefined) ?? { format: 'json', bytes: new Uint8Array() }
      try {
        if (batch.bytes.byteLength <= options.catalogTask.bytes) {
          const result = await changing(projectId, (index) => ingestBatch(index, batch, app.catalogEmbedder, options.catalogTask.items))
          if (result !== undefined) return result
        }
        // Too large to index while the client waits: checked whole on a thread, then queued.
        const { queued } = await queueBatchOnThread(batch)
        const task = await app.tasks.enqueue(projectId, 'catalog_import', queued)
        return await reply.code(202).send({ task_id: task.id })
      } catch (err) {
        throw asApiError(err)
      }
    })
  })

  api.get('/documents/:id', {
    config: { rateLimit: 'catalog' },
    schema: { operationId: 'getDocument', tags: ['catalog'], summary: 'One catalog item', params: DocumentParams, response: { 200: CatalogDocument, ...errorResponses(...searchErrors.getDocument) } }
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
      response: { 200: DeletedResponse, ...errorResponses(...bodyErrors, ...searchErrors.deleteDocument, ...idempotencyErrors) }
    }
  }, async (request) => {
    const removed = await changing(request.principal.projectId, (index) => index.remove(request.params.id))
    if (!removed) throw notFound(request.params.id)
    return { id: request.params.id, deleted: true as const }
  })

  api.get('/settings', {
    config: { rateLimit: 'catalog' },
    schema: { operationId: 'getSettings', tags: ['catalog'], summary: 'Index settings of the catalog', response: { 200: CatalogSettings, ...errorResponses(...searchErrors.getSettings) } }
  }, async (request) => await (await app.engine.index(request.principal.projectId)).settings())

  api.put('/settings', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'replaceSettings',
      tags: ['catalog'],
      summary: 'Replace the index settings; the catalog is re-indexed with them, unless only autocomplete\'s rules changed',
      description: 'Besides the schema, 400 invalid_request refuses word settings that depend on how search splits text (at anything that is not a letter or a digit): a stop word that is not exactly one word, a synonym key with no word, made only of stop words or of more words besides stop words than the limit, and an alternative with no word.',
      body: CatalogSettings,
      response: { 200: CatalogSettings, ...errorResponses(...bodyErrors, ...searchErrors.replaceSettings, ...idempotencyErrors) }
    }
  }, async (request) => {
    // What the schema cannot tell: a stop word or a synonym that search would never find.
    const problem = wordSettingsProblem(request.body)
    if (problem !== undefined) throw new ApiError('invalid_request', problem)
    return await changing(request.principal.projectId, (index) => index.updateSettings(request.body))
  })
}
