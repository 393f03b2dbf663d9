import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AutocompleteBody, AutocompleteResponse, ErrorBody, SearchBody, SearchResponse, errorResponses } from '@chatsearch/contracts'
import { notImplemented } from '@chatsearch/shell'

/**
 * The search endpoints with their contracts and credential check. No engine is wired in yet:
 * a valid, authenticated request is answered 501 rather than with made-up results.
 */
export async function searchRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const pending = () => notImplemented('the catalog search engine is not available in this version yet')

  api.post('/search', {
    schema: {
      tags: ['search'],
      summary: 'Keyword or hybrid search of the project catalog',
      body: SearchBody,
      response: { 200: SearchResponse, 501: ErrorBody, ...errorResponses }
    }
  }, async () => { throw pending() })

  api.post('/autocomplete', {
    schema: {
      tags: ['search'],
      summary: 'Suggestions for a partial search term',
      body: AutocompleteBody,
      response: { 200: AutocompleteResponse, 501: ErrorBody, ...errorResponses }
    }
  }, async () => { throw pending() })
}
