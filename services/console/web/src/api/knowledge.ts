import type { KnowledgeFaqInput } from '@chatsearch/contracts'
import { del, get, post, projectPath, query, request } from './client.js'
import type { DocumentsResponse, KnowledgeDocument, KnowledgeListResponse, TaskAccepted } from './types.js'

export const listDocuments = (id: string, params: { kind?: string, limit: number, offset: number }) =>
  get<KnowledgeListResponse>(projectPath(id, 'knowledge', 'documents') + query(params))
export const getDocument = (id: string, docId: string) => get<KnowledgeDocument>(projectPath(id, 'knowledge', 'documents', docId))
export const deleteDocument = (id: string, docId: string) => del(projectPath(id, 'knowledge', 'documents', docId))
/** Adds the pair, or replaces the one with the same id. */
export const saveFaq = (id: string, faq: KnowledgeFaqInput) => post<DocumentsResponse>(projectPath(id, 'knowledge', 'documents'), [faq])
export const crawl = (id: string, url: string, maxPages?: number) =>
  post<TaskAccepted>(projectPath(id, 'knowledge', 'crawl'), maxPages === undefined ? { url } : { url, max_pages: maxPages })

export function uploadFiles (id: string, files: FileList | File[], url?: string) {
  const form = new FormData()
  // The url field comes first: the search service reads the parts as they stream.
  if (url !== undefined && url !== '') form.set('url', url)
  for (const file of files) form.append('file', file, file.name)
  return request<TaskAccepted>(projectPath(id, 'knowledge', 'files'), { method: 'POST', body: form })
}

/** A new pair's id: its question's words, and a random tail so two alike questions do not collide. */
export function faqId (question: string): string {
  const words = question.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60)
  const tail = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)
  return `faq-${words === '' ? 'pair' : words}-${tail}`
}
