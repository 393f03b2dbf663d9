import type { FastifyInstance } from 'fastify'
import type { DocumentsResponse } from '@chatsearch/contracts'
import { ingestDocuments } from '../ingest/documents.js'
import { readQueuedBatch } from '../ingest/queued-batch.js'
import type { TaskHandler } from './queue.js'

/** Items written between two progress reports: a few seconds of work with embeddings. */
export const IMPORT_SLICE = 500

/**
 * What POST /documents queued before batches were queued as JSON Lines (queued-batch.ts); a task
 * queued so by an earlier version is still run.
 */
export interface CatalogImportPayload {
  /** Items in the body, as received (the answer's `received`). */
  received: number
  /** The batch, validated whole by the route; a repeated id already reduced to its last item. */
  documents: unknown[]
}

function batchOf (payload: unknown): { received: number, count: number, slices: () => Iterable<unknown[]> } {
  if (Buffer.isBuffer(payload)) return readQueuedBatch(payload, IMPORT_SLICE)
  const { received, documents } = payload as CatalogImportPayload
  return {
    received,
    count: documents.length,
    slices: function * () { for (let start = 0; start < documents.length; start += IMPORT_SLICE) yield documents.slice(start, start + IMPORT_SLICE) }
  }
}

/**
 * Writes the batch (validated whole by the route: queued-batch.ts) slice by slice, each slice parsed
 * when its turn comes, reporting progress and the counts of the synchronous answer (`received`,
 * `indexed`, `unchanged`, `total`) as details. Run again after a replica died, it skips the items
 * already written as unchanged.
 */
export function catalogImport (app: FastifyInstance): TaskHandler {
  return async ({ projectId, payload, progress, details, signal }) => {
    const batch = batchOf(payload)
    const counts: DocumentsResponse = { received: batch.received, indexed: 0, unchanged: 0, total: 0 }
    await progress(0, batch.count)
    let done = 0
    for (const slice of batch.slices()) {
      signal.throwIfAborted()
      try {
        const result = await ingestDocuments(await app.engine.index(projectId), slice, app.catalogEmbedder)
        counts.indexed += result.indexed
        counts.unchanged += result.unchanged
        counts.total = result.total
      } finally {
        // Searches see each slice at once, as they would after a synchronous import.
        await app.searchCache.bump(projectId)
      }
      done += slice.length
      await details({ ...counts })
      await progress(done, batch.count)
    }
  }
}
