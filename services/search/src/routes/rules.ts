import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { SearchRulesBody, SearchRulesResponse, bodyErrors, errorResponses, idempotencyErrors, limits, searchErrors } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { rulesProblem, storedRule } from '../rules/rule.js'
import { RULES_CACHE_TTL_MS } from '../rules/store.js'

/** The project's search rules: read and replaced whole, with the credential and rate limit of the catalog settings. */
export async function ruleRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/rules', {
    config: { rateLimit: 'catalog' },
    schema: {
      operationId: 'getRules',
      tags: ['rules'],
      summary: 'The project\'s search rules, in precedence order',
      response: { 200: SearchRulesResponse, ...errorResponses(...searchErrors.getRules) }
    }
  }, async (request): Promise<SearchRulesResponse> => ({ rules: (await app.searchRules.read(request.principal.projectId)).map((compiled) => compiled.rule) }))

  api.put('/rules', {
    config: { rateLimit: 'catalog', idempotency: {} },
    schema: {
      operationId: 'replaceRules',
      tags: ['rules'],
      summary: 'Replace the project\'s search rules with this list',
      description: `Answers the list as stored (see GET /rules). At most ${limits.rulesMax} rules, ${limits.rulePinsMax} pins and ` +
        `${limits.ruleHidesMax} hidden items per rule. Refused whole (400 invalid_request, naming the rule) when two rules share an id, ` +
        'a rule pins one item or one position twice, pins and hides one item, or ends before it starts. Searches on this replica ' +
        `follow the new list at once, those on other replicas within ${RULES_CACHE_TTL_MS / 1000} s.`,
      body: SearchRulesBody,
      response: { 200: SearchRulesResponse, ...errorResponses(...bodyErrors, ...searchErrors.replaceRules, ...idempotencyErrors) }
    }
  }, async (request): Promise<SearchRulesResponse> => {
    const problem = rulesProblem(request.body)
    if (problem !== undefined) throw new ApiError('invalid_request', problem)
    const { projectId } = request.principal
    const rules = request.body.map(storedRule)
    await app.searchRules.replace(projectId, rules)
    // As after a settings change, the project's cached answers end. The cache's keys also hold the
    // rules that apply (response-cache.ts): that is what keeps right the answers of replicas that
    // still read the old list, and of rules whose window opens or closes.
    await app.searchCache.bump(projectId)
    return { rules }
  })
}
