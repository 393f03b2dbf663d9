import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { CredentialParams, CredentialsQuery, CredentialsResponse, IssueCredentialBody, IssuedCredential, NoContent, ProjectParams, bodyErrors, sessionErrorResponses } from '@chatsearch/contracts'
import { createKey, keyHint, listKeys, publishRevocation, revokeKey } from '@chatsearch/auth'
import { ApiError } from '@chatsearch/shell'

/**
 * The project's credentials (decision 6): the "API Keys" (chat) and "API Tokens" (search) of the
 * dashboard, issued in the signed-in user's name. Any member may issue and revoke.
 */
export async function credentialRoutes (app: FastifyInstance, opts: { redis: FastifyInstance['redis'] }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/api/projects/:project_id/credentials', {
    schema: {
      operationId: 'listCredentials',
      tags: ['credentials'],
      summary: 'The project\'s credentials (chat API keys and search API tokens), revoked ones included, without their secrets',
      params: ProjectParams,
      querystring: CredentialsQuery,
      response: { 200: CredentialsResponse, ...sessionErrorResponses('project_not_found') }
    }
  }, async (request) => {
    const keys = await listKeys(app.pg, request.member.projectId)
    const service = request.query.service
    return {
      credentials: keys.filter((k) => service === undefined || k.service === service)
        .map((k) => ({ id: k.id, service: k.service, username: k.username, hint: k.hint, created_at: k.created_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at }))
    }
  })

  api.post('/api/projects/:project_id/credentials', {
    schema: {
      operationId: 'issueCredential',
      tags: ['credentials'],
      summary: 'Issue a credential of the chat or the search service in the signed-in user\'s name; its secret is shown this once',
      params: ProjectParams,
      body: IssueCredentialBody,
      response: { 201: IssuedCredential, ...sessionErrorResponses('missing_parameters', ...bodyErrors, 'project_not_found', 'csrf_failed') }
    }
  }, async (request, reply) => {
    const created = await createKey(app.pg, request.member.projectId, request.body.service, request.session.username)
    const listed = (await listKeys(app.pg, request.member.projectId)).find((k) => k.id === created.id)!
    return await reply.code(201).send({
      id: created.id, service: created.service, username: created.username, key: created.key, hint: keyHint(created.key), created_at: listed.created_at
    })
  })

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
