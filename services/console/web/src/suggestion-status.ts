import type { SuggestionCandidate } from './api/types.js'

const STATUS: Record<SuggestionCandidate['status'], string> = {
  suggested: 'Suggested',
  few_searchers: 'Too few shoppers',
  no_keyword_results: 'No keyword results',
  excluded: 'Excluded'
}

/**
 * Why a popular search is or is not suggested, in the catalog page's words. The API's
 * `no_keyword_results` also stands for keyword results not known yet (`hits` null: on Meilisearch, a
 * search made only as hybrid, looked up once it has enough searchers), which is not "none".
 */
export function suggestionStatusText (candidate: Pick<SuggestionCandidate, 'status' | 'hits'>): string {
  if (candidate.status === 'no_keyword_results' && candidate.hits === null) return 'Keyword results not known yet'
  return STATUS[candidate.status]
}
