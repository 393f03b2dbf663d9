import type { KnowledgeKind, KnowledgeListResponse } from '@chatsearch/contracts'
import { knowledgePage, type SearchConfig } from '@chatsearch/search/tools'
import { ensureProject } from './database.js'
import { withEngine } from './engine.js'
import { CommandError } from './errors.js'

export interface KnowledgePage { kind?: KnowledgeKind | undefined, limit: number, offset: number }

/** A project's knowledge documents by id, as GET /knowledge/documents answers. */
export async function listKnowledge (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, { kind, limit, offset }: KnowledgePage): Promise<KnowledgeListResponse> {
  await ensureProject(env, projectId)
  return await withEngine(config, false, async (engine) => await knowledgePage(await engine.knowledge(projectId), { limit, offset, kind }))
}

/** Removes a knowledge document and its chunks, as DELETE /knowledge/documents/:id does. */
export async function deleteKnowledge (env: NodeJS.ProcessEnv, config: SearchConfig, projectId: string, id: string) {
  await ensureProject(env, projectId)
  const removed = await withEngine(config, false, async (engine) => await (await engine.knowledge(projectId)).remove(id))
  if (!removed) throw new CommandError(`no knowledge document ${id} in project ${projectId}`)
  return { id, deleted: true as const }
}
