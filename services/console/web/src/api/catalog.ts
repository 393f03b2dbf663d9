import { del, get, post, projectPath, put, query, request } from './client.js'
import type { CatalogSettings, DocumentsResponse, FacetSearchBody, FacetSearchResponse, SearchBody, SearchResponse, SearchRule, SearchRulesResponse, SuggestionCandidatesResponse, Task, TaskAccepted, TaskList } from './types.js'

/** The content type of a catalog file, from its name: the console converts CSV and reads JSON and NDJSON. */
export function catalogContentType (fileName: string): string | undefined {
  const ext = fileName.toLowerCase().split('.').pop()
  if (ext === 'json') return 'application/json'
  if (ext === 'jsonl' || ext === 'ndjson') return 'application/x-ndjson'
  if (ext === 'csv') return 'text/csv'
  return undefined
}

/** Imports a catalog file: indexed at once (the counts) or, for a large one, as a task to follow. */
export const importCatalog = (id: string, file: File, contentType: string) =>
  request<DocumentsResponse | TaskAccepted>(projectPath(id, 'catalog'), { method: 'POST', body: file, headers: { 'content-type': contentType } })

export const search = (id: string, body: SearchBody) => post<SearchResponse>(projectPath(id, 'search'), body)
/** The values of one facet that begin with a query, counted over the items a search matches. */
export const facetSearch = (id: string, body: FacetSearchBody) => post<FacetSearchResponse>(projectPath(id, 'facet-search'), body)
export const deleteItem = (id: string, itemId: string) => del(projectPath(id, 'documents', itemId))
export const getSettings = (id: string) => get<CatalogSettings>(projectPath(id, 'settings'))
export const putSettings = (id: string, settings: CatalogSettings) => put<CatalogSettings>(projectPath(id, 'settings'), settings)
export const getRules = (id: string) => get<SearchRulesResponse>(projectPath(id, 'rules'))
/** Replaces the project's search rules with this list (its order is their precedence). */
export const putRules = (id: string, rules: SearchRule[]) => put<SearchRulesResponse>(projectPath(id, 'rules'), rules)
/** The catalog's popular searches, the most searched first, each with whether autocomplete suggests it. */
export const listCandidates = (id: string, page: { limit: number, offset: number }) =>
  get<SuggestionCandidatesResponse>(projectPath(id, 'suggestions', 'candidates') + query(page))

export const getTask = (id: string, taskId: string, signal?: AbortSignal) => get<Task>(projectPath(id, 'tasks', taskId), signal)
export const listTasks = (id: string) => get<TaskList>(projectPath(id, 'tasks') + '?limit=20')
/** Cancels a task that has not ended; what it had done stays. */
export const cancelTask = (id: string, taskId: string) => post<Task>(projectPath(id, 'tasks', taskId, 'cancel'), {})
