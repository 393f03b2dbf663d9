import type pg from 'pg'
import { createProject } from '@chatsearch/auth'
import type { ConsoleProject, Member, ProjectRole } from '@chatsearch/contracts'
import { inTransaction, type Queryable } from '@chatsearch/shell'

/** The user's role in the project, or undefined when they are not a member (or there is no such project). */
export async function roleIn (db: Queryable, projectId: string, userId: number): Promise<ProjectRole | undefined> {
  const { rows } = await db.query<{ role: ProjectRole }>('SELECT role FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId])
  return rows[0]?.role
}

interface ProjectRow { id: string, name: string, role: ProjectRole, created_at: Date }
const projectOf = (r: ProjectRow): ConsoleProject => ({ id: r.id, name: r.name, role: r.role, created_at: r.created_at.toISOString() })

export async function projectsOf (db: Queryable, userId: number): Promise<ConsoleProject[]> {
  const { rows } = await db.query<ProjectRow>(
    `SELECT p.id, p.name, m.role, p.created_at FROM project_members m JOIN projects p ON p.id = m.project_id
     WHERE m.user_id = $1 ORDER BY p.created_at, p.id`, [userId])
  return rows.map(projectOf)
}

/** A new project with its creator as owner, in one transaction. */
export async function createOwnedProject (pool: pg.Pool, userId: number, name: string): Promise<ConsoleProject> {
  return await inTransaction(pool, async (client) => {
    const project = await createProject(client, name)
    await client.query('INSERT INTO project_members (project_id, user_id, role) VALUES ($1, $2, $3)', [project.id, userId, 'owner'])
    return { ...project, role: 'owner' }
  })
}

export async function renameProject (db: Queryable, projectId: string, userId: number, name: string): Promise<ConsoleProject> {
  const { rows } = await db.query<ProjectRow>(
    `UPDATE projects p SET name = $2 FROM project_members m
     WHERE p.id = $1 AND m.project_id = p.id AND m.user_id = $3 RETURNING p.id, p.name, m.role, p.created_at`, [projectId, name, userId])
  return projectOf(rows[0]!)
}

export async function membersOf (db: Queryable, projectId: string): Promise<Member[]> {
  const { rows } = await db.query<{ username: string, role: ProjectRole, added_at: Date }>(
    `SELECT u.username, m.role, m.added_at FROM project_members m JOIN console_users u ON u.id = m.user_id
     WHERE m.project_id = $1 ORDER BY m.added_at, u.username`, [projectId])
  return rows.map((r) => ({ username: r.username, role: r.role, added_at: r.added_at.toISOString() }))
}

/** Adds a user by name: 'no_user' when nobody has the name, 'exists' when they are a member already. */
export async function addMember (db: Queryable, projectId: string, username: string, role: ProjectRole): Promise<Member | 'no_user' | 'exists'> {
  const { rows } = await db.query<{ added_at: Date | null, found: boolean }>(
    `WITH u AS (SELECT id FROM console_users WHERE username = $2),
     ins AS (INSERT INTO project_members (project_id, user_id, role) SELECT $1, id, $3 FROM u
             ON CONFLICT (project_id, user_id) DO NOTHING RETURNING added_at)
     SELECT (SELECT added_at FROM ins) AS added_at, EXISTS (SELECT 1 FROM u) AS found`, [projectId, username, role])
  const row = rows[0]!
  if (!row.found) return 'no_user'
  if (row.added_at === null) return 'exists'
  return { username, role, added_at: row.added_at.toISOString() }
}

/**
 * Removes a member: 'no_member' when the user is not one, 'last_owner' when they are the project's
 * only owner (a project keeps one). Serialised per project by locking its owners' rows.
 */
export async function removeMember (pool: pg.Pool, projectId: string, username: string): Promise<'removed' | 'no_member' | 'last_owner'> {
  return await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ username: string, role: ProjectRole }>(
      `SELECT u.username, m.role FROM project_members m JOIN console_users u ON u.id = m.user_id
       WHERE m.project_id = $1 FOR UPDATE OF m`, [projectId])
    const member = rows.find((r) => r.username === username)
    const owners = rows.filter((r) => r.role === 'owner').length
    let outcome: 'removed' | 'no_member' | 'last_owner' = 'removed'
    if (member === undefined) outcome = 'no_member'
    else if (member.role === 'owner' && owners === 1) outcome = 'last_owner'
    else {
      await client.query('DELETE FROM project_members m USING console_users u WHERE m.project_id = $1 AND m.user_id = u.id AND u.username = $2', [projectId, username])
    }
    return outcome
  })
}
