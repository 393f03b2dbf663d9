import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  AddMemberBody, ConsoleProject, ConsoleProjectsResponse, Member, MemberParams, MembersResponse, NoContent, ProjectNameBody, ProjectParams, bodyErrors, sessionErrorResponses
} from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import { addMember, createOwnedProject, membersOf, projectsOf, removeMember, renameProject } from '../store/memberships.js'
import { requireOwner } from '../membership.js'

/** GET and POST /api/projects: behind the session only. */
export async function projectListRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/api/projects', {
    schema: {
      operationId: 'listProjects',
      tags: ['projects'],
      summary: 'The projects the signed-in user is a member of, with their role in each',
      response: { 200: ConsoleProjectsResponse, ...sessionErrorResponses() }
    }
  }, async (request) => ({ projects: await projectsOf(app.pg, request.session.userId) }))

  api.post('/api/projects', {
    schema: {
      operationId: 'createProject',
      tags: ['projects'],
      summary: 'Create a project; the signed-in user is its owner',
      body: ProjectNameBody,
      response: { 201: ConsoleProject, ...sessionErrorResponses('missing_parameters', ...bodyErrors, 'csrf_failed') }
    }
  }, async (request, reply) => {
    const project = await createOwnedProject(app.pg, request.session.userId, request.body.name.trim())
    return await reply.code(201).send(project)
  })
}

/** The project itself and its members: behind the session and the membership check. */
export async function projectRoutes (app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get('/api/projects/:project_id', {
    schema: {
      operationId: 'getProject',
      tags: ['projects'],
      summary: 'One project of the signed-in user',
      params: ProjectParams,
      response: { 200: ConsoleProject, ...sessionErrorResponses('project_not_found') }
    }
  }, async (request) => (await projectsOf(app.pg, request.session.userId)).find((p) => p.id === request.member.projectId)!)

  api.patch('/api/projects/:project_id', {
    schema: {
      operationId: 'renameProject',
      tags: ['projects'],
      summary: 'Rename a project (owners only)',
      params: ProjectParams,
      body: ProjectNameBody,
      response: { 200: ConsoleProject, ...sessionErrorResponses('missing_parameters', ...bodyErrors, 'project_not_found', 'owner_required', 'csrf_failed') }
    }
  }, async (request) => {
    requireOwner(request)
    return await renameProject(app.pg, request.member.projectId, request.session.userId, request.body.name.trim())
  })

  api.get('/api/projects/:project_id/members', {
    schema: {
      operationId: 'listMembers',
      tags: ['projects'],
      summary: 'The members of a project and their roles',
      params: ProjectParams,
      response: { 200: MembersResponse, ...sessionErrorResponses('project_not_found') }
    }
  }, async (request) => ({ members: await membersOf(app.pg, request.member.projectId) }))

  api.post('/api/projects/:project_id/members', {
    schema: {
      operationId: 'addMember',
      tags: ['projects'],
      summary: 'Add a console user to a project, as member (default) or owner (owners only)',
      params: ProjectParams,
      body: AddMemberBody,
      response: { 201: Member, ...sessionErrorResponses('missing_parameters', ...bodyErrors, 'project_not_found', 'owner_required', 'user_not_found', 'member_exists', 'csrf_failed') }
    }
  }, async (request, reply) => {
    requireOwner(request)
    const { username, role = 'member' } = request.body
    const added = await addMember(app.pg, request.member.projectId, username, role)
    if (added === 'no_user') throw new ApiError('user_not_found', `no console user ${username}: create one with pnpm cli user create`)
    if (added === 'exists') throw new ApiError('member_exists', `${username} is already a member of this project`)
    return await reply.code(201).send(added)
  })

  api.delete('/api/projects/:project_id/members/:username', {
    schema: {
      operationId: 'removeMember',
      tags: ['projects'],
      summary: 'Remove a member from a project (owners only); a project keeps at least one owner',
      params: MemberParams,
      response: { 204: NoContent('Removed'), ...sessionErrorResponses(...bodyErrors, 'project_not_found', 'owner_required', 'user_not_found', 'last_owner', 'csrf_failed') }
    }
  }, async (request, reply) => {
    requireOwner(request)
    const outcome = await removeMember(app.pg, request.member.projectId, request.params.username)
    if (outcome === 'no_member') throw new ApiError('user_not_found', `${request.params.username} is not a member of this project`)
    if (outcome === 'last_owner') throw new ApiError('last_owner', 'a project keeps at least one owner: make another member owner first')
    return await reply.code(204).send()
  })
}
