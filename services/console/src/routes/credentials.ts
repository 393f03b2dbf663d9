import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CredentialParams, CredentialsQuery, CredentialsResponse, IssueCredentialBody, IssuedCredential, NoContent, ProjectParams, WidgetSettings, bodyErrors, sessionErrorResponses } from '@chatsearch/contracts'
import { createKey, InvalidOriginsError, keyHint, listKeys, publishRevocation, revokeKey, rotateIdentitySecret, widgetSecrets, type KeyInfo } from '@chatsearch/auth'
import { ApiError } from '@chatsearch/shell'

/** A widget key's origins; the other keys have none to show. */
const originsOf = (k: Pick<KeyInfo, 'service' | 'origins'>) => k.service === 'widget' ? { origins: k.origins } : {}

/**
 * The project's credentials (decision 6): the "API Keys" (chat) and "API Tokens" (search) of the
 * dashboard, and the publishable widget keys of its "Widget" section (decision 18), issued in the
 * signed-in user's name. Any member may issue and revoke.
 */
export async function credentialRoutes (app: FastifyInstance, opts: { redis: FastifyInstance['redis'], chatPublicUrl: string }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const loaderUrl = `${opts.chatPublicUrl}/widget/v1/loader.js`

  api.get('/api/projects/:project_id/credentials', {
    schema: {
      operationId: 'listCredentials',
      tags: ['credentials'],
      summary: 'The project\'s credentials (chat API keys, search API tokens, widget keys with their origins), revoked ones included, without their secrets',
      params: ProjectParams,
      querystring: CredentialsQuery,
      response: { 200: CredentialsResponse, ...sessionErrorResponses('project_not_found') }
    }
  }, async (request) => {
    const keys = await listKeys(app.pg, request.member.projectId)
    const service = request.query.service
    return {
      credentials: keys.filter((k) => service === undefined || k.service === service)
        .map((k) => ({ id: k.id, service: k.service, username: k.username, hint: k.hint, ...originsOf(k), created_at: k.created_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at }))
    }
  })

  api.post('/api/projects/:project_id/credentials', {
    schema: {
      operationId: 'issueCredential',
      tags: ['credentials'],
      summary: 'Issue a credential of the chat or the search service, or a widget key bound to its origins, in the signed-in user\'s name; its secret is shown this once',
      description: 'A widget key (`service: "widget"`) needs `origins`, each an exact origin such as `https://shop.example` (no path, no trailing slash): anything else is 400 `invalid_request`, naming the origin. The other keys take no origins.',
      params: ProjectParams,
      body: IssueCredentialBody,
      response: { 201: IssuedCredential, ...sessionErrorResponses('missing_parameters', ...bodyErrors, 'project_not_found', 'csrf_failed') }
    }
  }, async (request, reply) => {
    const created = await createKey(app.pg, request.member.projectId, request.body.service, request.session.username, request.body.origins).catch((err: unknown) => {
      throw err instanceof InvalidOriginsError ? new ApiError('invalid_request', err.message) : err
    })
    const listed = (await listKeys(app.pg, request.member.projectId)).find((k) => k.id === created.id)!
    return await reply.code(201).send({
      id: created.id, service: created.service, username: created.username, key: created.key, hint: keyHint(created.key), ...originsOf(created), created_at: listed.created_at
    })
  })

  api.get('/api/projects/:project_id/widget', {
    schema: {
      operationId: 'readWidgetSettings',
      tags: ['credentials'],
      summary: 'The project\'s identity secret, under which the shop\'s server signs its logged-in customer\'s id for the widget (made on first read), and the widget loader\'s URL for the snippet',
      params: ProjectParams,
      response: { 200: WidgetSettings, ...sessionErrorResponses('project_not_found') }
    }
  }, async (request) => ({ identity_secret: (await widgetSecrets(app.pg, request.member.projectId)).identitySecret, loader_url: loaderUrl }))

  api.post('/api/projects/:project_id/widget/identity-secret', {
    schema: {
      operationId: 'rotateIdentitySecret',
      tags: ['credentials'],
      summary: 'Replace the project\'s identity secret: customer ids signed with the old one are refused from then on (within AUTH_CACHE_TTL_MS)',
      params: ProjectParams,
      response: { 200: WidgetSettings, ...sessionErrorResponses(...bodyErrors, 'project_not_found', 'csrf_failed') }
    }
  }, async (request) => ({ identity_secret: await rotateIdentitySecret(app.pg, request.member.projectId), loader_url: loaderUrl }))

  api.delete('/api/projects/:project_id/credentials/:credential_id', {
    schema: {
      operationId: 'revokeCredential',
      tags: ['credentials'],
      summary: 'Revoke a credential of the project: the services refuse it from then on',
      params: CredentialParams,
      response: { 204: NoContent('Revoked'), ...sessionErrorResponses(...bodyErrors, 'project_not_found', 'credential_not_found', 'csrf_failed') }
    }
  }, async (request, reply) => {
    const { credential_id: id } = request.params
    const owned = (await listKeys(app.pg, request.member.projectId)).some((k) => k.id === id)
    if (!owned || !await revokeKey(app.pg, id)) throw new ApiError('credential_not_found', `no credential ${id} in this project`)
    // revokeKey's NOTIFY reaches services on this database; with Redis, the replicas listening there too.
    if (opts.redis !== undefined) await publishRevocation(opts.redis, id).catch((err: unknown) => { request.log.warn({ err }, 'revocation not published to Redis') })
    return await reply.code(204).send()
  })
}
