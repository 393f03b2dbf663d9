import type { FastifyInstance } from 'fastify'
import type { DocumentsResponse } from '@chatsearch/contracts'
import { ingestDocuments } from '../ingest/documents.js'
import type { TaskHandler } from './queue.js'

/** Items written between two progress reports: a few seconds of work with embeddings. */
export const IMPORT_SLICE = 500

/** What POST /documents queues for a body too large to index while the client waits. */
export interface CatalogImportPayload {
  /** Items in the body, as received (the answer's `received`). */
  received: number
  /** The batch, validated whole by the route; a repeated id already reduced to its last item. */
  documents: unknown[]
}

/**
 * Writes the batch slice by slice, reporting progress and the counts of the synchronous answer
 * (`received`, `indexed`, `unchanged`, `total`) as details. Run again after a replica died, it
 * skips the items already written as unchanged.
 */
export function catalogImport (app: FastifyInstance): TaskHandler {
  return async ({ projectId, payload, progress, details, signal }) => {
    const { received, documents } = payload as CatalogImportPayload
    const counts: DocumentsResponse = { received, indexed: 0, unchanged: 0, total: 0 }
    await progress(0, documents.length)
    for (let start = 0; start < documents.length; start += IMPORT_SLICE) {
      signal.throwIfAborted()
      const slice = documents.slice(start, start + IMPORT_SLICE)
      try {
        const result = await ingestDocuments(await app.engine.index(projectId), slice, app.embedder)
        counts.indexed += result.indexed
        counts.unchanged += result.unchanged
        counts.total = result.total
      } finally {
        // Searches see each slice at once, as they would after a synchronous import.
        await app.searchCache.bump(projectId)
      }
      await details({ ...counts })
      await progress(start + slice.length, documents.length)
    }
  }
}
