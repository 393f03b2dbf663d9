import type { KnowledgeKind, KnowledgeListResponse } from '@chatsearch/contracts'
import type { KnowledgeIndex } from '../engine/port.js'

/** A page of a project's knowledge documents as GET /knowledge/documents (and the CLI's list) answers it. */
export async function knowledgePage (index: KnowledgeIndex, { limit, offset, kind }: { limit: number, offset: number, kind?: KnowledgeKind | undefined }): Promise<KnowledgeListResponse> {
  const { results, total } = await index.list({ limit, offset, ...(kind === undefined ? {} : { kind }) })
  return {
    results: results.map((r) => ({ id: r.id, kind: r.kind, title: r.title, url: r.url ?? null, chunks: r.chunks, updated_at: r.updatedAt })),
    total,
    limit,
    offset
  }
}
