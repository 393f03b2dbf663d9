import type { Command } from 'commander'
import { createProject, listProjects } from '@chatsearch/auth'
import { withDatabase } from '../database.js'
import { UsageError } from '../errors.js'
import type { CommandContext } from './context.js'

const NAME_MAX = 200

export function projectCommands (program: Command, { env, print }: CommandContext) {
  const project = program.command('project').description('create and list projects')

  project.command('create')
    .description('create a project')
    .argument('<name>', `the project's name (at most ${NAME_MAX} characters)`)
    .action(async (name: string) => {
      if (name.trim() === '') throw new UsageError('<name> must not be blank')
      if (name.length > NAME_MAX) throw new UsageError(`a project name has at most ${NAME_MAX} characters`)
      const created = await withDatabase(env, (db) => createProject(db, name))
      print(created, `created project ${created.id} (${created.name})`)
    })

  project.command('list')
    .description('list projects')
    .action(async () => {
      const projects = await withDatabase(env, listProjects)
      print(projects, projects.length === 0 ? 'no projects' : projects.map((p) => `${p.id}  ${p.created_at}  ${p.name}`).join('\n'))
    })
}
