import type { Command } from 'commander'
import { passwordLimits, usernamePattern } from '@chatsearch/contracts'
import { CommandError, UsageError } from '../errors.js'
import type { CommandContext } from './context.js'

const USERNAME = new RegExp(usernamePattern)

function checkUsername (username: string) {
  if (!USERNAME.test(username)) throw new UsageError('<username> must be 1 to 64 letters, digits, ".", "_", "@" or "-"')
}

/** The password piped in (one trailing line break dropped), or a new random one to print. */
async function passwordOf (fromStdin: boolean): Promise<{ password: string, generated: boolean }> {
  if (!fromStdin) return { password: (await import('@chatsearch/auth')).randomBase62(20), generated: true }
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  const password = text.replace(/\r?\n$/, '')
  if (password.length < passwordLimits.minChars || password.length > passwordLimits.maxChars) {
    throw new UsageError(`the password must have ${passwordLimits.minChars} to ${passwordLimits.maxChars} characters`)
  }
  return { password, generated: false }
}

export function userCommands (program: Command, { env, print }: CommandContext) {
  const user = program.command('user').description('create, list and delete console users; set their passwords')
  const stdinHelp = 'read the password from stdin (otherwise a random one is made and printed once)'

  user.command('create')
    .description('create a console user')
    .argument('<username>', '1 to 64 letters, digits, ".", "_", "@" or "-"')
    .option('--password-stdin', stdinHelp)
    .action(async (username: string, options: { passwordStdin?: boolean }) => {
      checkUsername(username)
      const { password, generated } = await passwordOf(options.passwordStdin === true)
      const { createUser, withConsoleDatabase } = await import('../console-database.js')
      const created = await withConsoleDatabase(env, (db) => createUser(db, username, password))
      if (created === undefined) throw new CommandError(`a user ${username} exists already`)
      const value = { username: created.username, created_at: created.created_at, ...(generated ? { password } : {}) }
      print(value, `created user ${username}${generated ? `\n\n  password: ${password}\n\nStore it now: it is not shown again.` : ''}`)
    })

  user.command('list')
    .description('list console users')
    .action(async () => {
      const { listUsers, withConsoleDatabase } = await import('../console-database.js')
      const users = await withConsoleDatabase(env, listUsers)
      print(users.map((u) => ({ username: u.username, created_at: u.created_at })),
        users.length === 0 ? 'no users' : users.map((u) => `${u.username}  ${u.created_at}`).join('\n'))
    })

  user.command('delete')
    .description('delete a console user, with their memberships and sessions')
    .argument('<username>', 'the user')
    .action(async (username: string) => {
      const { deleteUser, withConsoleDatabase } = await import('../console-database.js')
      if (!await withConsoleDatabase(env, (db) => deleteUser(db, username))) throw new CommandError(`no user ${username}`)
      print({ username, deleted: true }, `deleted user ${username}`)
    })

  user.command('password')
    .description("set a user's password; their sessions end")
    .argument('<username>', 'the user')
    .option('--password-stdin', stdinHelp)
    .action(async (username: string, options: { passwordStdin?: boolean }) => {
      const { password, generated } = await passwordOf(options.passwordStdin === true)
      const { setPassword, withConsoleDatabase } = await import('../console-database.js')
      if (!await withConsoleDatabase(env, (db) => setPassword(db, username, password))) throw new CommandError(`no user ${username}`)
      print({ username, ...(generated ? { password } : {}) }, `new password for ${username}${generated ? `\n\n  password: ${password}\n\nStore it now: it is not shown again.` : ''}`)
    })
}
