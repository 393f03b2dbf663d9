import { Option, type Command } from 'commander'
import { CommandError, UsageError } from '../errors.js'
import type { CommandContext } from './context.js'

const NAME_MAX = 200

export function projectCommands (program: Command, { env, print }: CommandContext) {
  const project = program.command('project').description('create and list projects; add console users to them')

  project.command('create')
    .description('create a project')
    .argument('<name>', `the project's name (at most ${NAME_MAX} characters)`)
    .action(async (name: string) => {
      if (name.trim() === '') throw new UsageError('<name> must not be blank')
      if (name.length > NAME_MAX) throw new UsageError(`a project name has at most ${NAME_MAX} characters`)
      const { createProject } = await import('@chatsearch/auth')
      const { withDatabase } = await import('../database.js')
      const created = await withDatabase(env, (db) => createProject(db, name))
      print(created, `created project ${created.id} (${created.name})`)
    })

  project.command('list')
    .description('list projects')
    .action(async () => {
      const { listProjects } = await import('@chatsearch/auth')
      const { withDatabase } = await import('../database.js')
      const projects = await withDatabase(env, listProjects)
      print(projects, projects.length === 0 ? 'no projects' : projects.map((p) => `${p.id}  ${p.created_at}  ${p.name}`).join('\n'))
    })

  project.command('add-member')
    .description('let a console user see a project in the console')
    .argument('<projectId>', 'the project')
    .argument('<username>', 'the console user (pnpm cli user create)')
    .addOption(new Option('--role <role>', 'owners also manage members and rename the project').choices(['owner', 'member']).default('member'))
    .action(async (projectId: string, username: string, options: { role: 'owner' | 'member' }) => {
      const { addMember, requireProject, withConsoleDatabase } = await import('../console-database.js')
      const added = await withConsoleDatabase(env, async (db) => {
        await requireProject(db, projectId)
        return await addMember(db, projectId, username, options.role)
      })
      if (added === 'no_user') throw new CommandError(`no user ${username}`)
      if (added === 'exists') throw new CommandError(`${username} is already a member of ${projectId}`)
      print({ project_id: projectId, ...added }, `${username} is now ${options.role === 'owner' ? 'an owner' : 'a member'} of ${projectId}`)
    })
}
