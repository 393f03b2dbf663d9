import { del, get, patch, post, projectPath } from './client.js'
import type { Credential, Member, IssuedCredential, Project, Role, Service, WidgetSettings } from './types.js'

export const listProjects = async () => (await get<{ projects: Project[] }>('/api/projects')).projects
export const createProject = (name: string) => post<Project>('/api/projects', { name })
export const renameProject = (id: string, name: string) => patch<Project>(projectPath(id), { name })

/** The project, from the list of the user's projects (the API has no single-project read). */
export async function findProject (id: string): Promise<Project | undefined> {
  return (await listProjects()).find((p) => p.id === id)
}

export const listMembers = async (id: string) => (await get<{ members: Member[] }>(projectPath(id, 'members'))).members
export const addMember = (id: string, username: string, role: Role) => post<Member>(projectPath(id, 'members'), { username, role })
export const removeMember = (id: string, username: string) => del(projectPath(id, 'members', username))

export const listCredentials = async (id: string, service: Service) =>
  (await get<{ credentials: Credential[] }>(projectPath(id, 'credentials') + '?service=' + service)).credentials
export const createCredential = (id: string, service: Service, origins?: string[]) =>
  post<IssuedCredential>(projectPath(id, 'credentials'), origins === undefined ? { service } : { service, origins })
export const revokeCredential = (id: string, credentialId: string) => del(projectPath(id, 'credentials', credentialId))

export const readWidgetSettings = (id: string) => get<WidgetSettings>(projectPath(id, 'widget'))
export const rotateIdentitySecret = (id: string) => post<WidgetSettings>(projectPath(id, 'widget', 'identity-secret'))
