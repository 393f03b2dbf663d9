import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { SuggestionCandidatesQuery, SuggestionCandidatesResponse, errorResponses, limits, searchErrors } from '@chatsearch/contracts'
import { integerQuery } from '@chatsearch/shell'
import { searchStatus, suggestionRules } from '../engine/settings.js'

/** The catalog's popular searches as autocomplete judges them, for the console to review and exclude. */
export async function suggestionRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/suggestions/candidates', {
    config: { rateLimit: 'catalog' },
    preValidation: integerQuery('limit', 'offset'),
    schema: {
      operationId: 'listSuggestionCandidates',
      tags: ['search'],
      summary: 'The catalog\'s popular searches, the most searched first, each with whether autocomplete suggests it and why not',
      description: 'A search is suggested once its keyword results exist, settings `suggestionsMinSearchers` distinct searchers ' +
        '(consumer_id, or the client address without one) made it, and settings `suggestionsExcluded` does not list it; ' +
        `searches made with the service token are not counted. The embedded engine keeps the ${limits.popularSearchesMax} most searched.`,
      querystring: SuggestionCandidatesQuery,
      response: { 200: SuggestionCandidatesResponse, ...errorResponses(...searchErrors.listSuggestionCandidates) }
    }
  }, async (request) => {
    const { limit = limits.candidatesLimitDefault, offset = 0 } = request.query
    const index = await app.engine.index(request.principal.projectId)
    const [settings, page] = await Promise.all([index.settings(), index.popularSearches(limit, offset)])
    const rules = suggestionRules(settings)
    return {
      results: page.searches.map((search) => ({ ...search, status: searchStatus(search, rules) })),
      total: page.total,
      limit,
      offset
    }
  })
}
