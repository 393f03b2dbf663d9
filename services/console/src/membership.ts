import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ProjectRole } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { roleIn } from './store/memberships.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of the path and the signed-in user's role in it; set by `requireMember`. */
    member: { projectId: string, role: ProjectRole }
  }
}

/**
 * onRequest hook of every /api/projects/:project_id/… route, after the session's: a project the
 * user is not a member of is answered exactly as one that does not exist (decision 9), before
 * the body is read.
 */
export function requireMember (app: FastifyInstance) {
  app.decorateRequest('member', null as unknown as FastifyRequest['member'])
  return async (request: FastifyRequest) => {
    const projectId = (request.params as { project_id?: string }).project_id ?? ''
    // PostgreSQL text cannot hold NUL: no project has such an id, and asking would fail the query.
    const role = projectId.includes('\u0000') ? undefined : await roleIn(app.pg, projectId, request.session.userId)
    if (role === undefined) throw new ApiError('project_not_found', `no project ${JSON.stringify(projectId.slice(0, 64))}`)
    request.member = { projectId, role }
  }
}

export function requireOwner (request: FastifyRequest) {
  if (request.member.role !== 'owner') throw new ApiError('owner_required', 'only an owner of the project may do this')
}
