import { Option, type Command } from 'commander'
import { CredentialService } from '@chatsearch/contracts'
import { CommandError, UsageError } from '../errors.js'
import type { CommandContext } from './context.js'

const USERNAME_MAX = 200

export function keyCommands (program: Command, { env, print }: CommandContext) {
  const key = program.command('key').description('issue, list and revoke credentials')

  key.command('create')
    .description('issue a credential (the secret is shown only once)')
    .argument('<projectId>', 'the project it belongs to')
    .addOption(new Option('--service <service>', 'the service it works on').choices(CredentialService.anyOf.map((s) => s.const)).makeOptionMandatory())
    .option('--username <name>', `who uses it (1 to ${USERNAME_MAX} characters)`, 'admin')
    .option('--origins <origin,…>', 'widget keys only, and required for them: the exact origins of the shop\'s pages (e.g. https://shop.example,https://www.shop.example)')
    .action(async (projectId: string, options: { service: CredentialService, username: string, origins?: string }) => {
      const { service, username } = options
      if (username.trim() === '' || username.length > USERNAME_MAX) throw new UsageError(`--username must have 1 to ${USERNAME_MAX} characters`)
      if (service === 'widget' && options.origins === undefined) throw new UsageError('a widget key needs --origins <origin,…>: the exact origins of the pages it is used on')
      if (service !== 'widget' && options.origins !== undefined) throw new UsageError(`--origins is for widget keys only; a ${service} key is used from servers`)
      const { checkOrigins, createKey, InvalidOriginsError } = await import('@chatsearch/auth')
      let origins: string[] = []
      try {
        if (options.origins !== undefined) origins = checkOrigins(options.origins.split(','))
      } catch (err) {
        throw err instanceof InvalidOriginsError ? new UsageError(`--origins: ${err.message}`) : err
      }
      const { requireProject, withDatabase } = await import('../database.js')
      const { origins: bound, ...created } = await withDatabase(env, async (db) => {
        await requireProject(db, projectId)
        return await createKey(db, projectId, service, username, origins)
      })
      const shown = service === 'widget' ? { ...created, origins: bound } : created
      const publishable = service === 'widget' ? `\nIt is publishable: it goes in the pages of ${bound.join(', ')} and works only from there, on the widget's routes.` : ''
      print(shown, `created ${service} key ${created.id} for ${username}\n\n  ${created.key}\n\nStore it now: it is not shown again.${publishable}`)
    })

  key.command('list')
    .description("list a project's credentials (no secrets)")
    .argument('<projectId>', 'the project')
    .action(async (projectId: string) => {
      const { listKeys } = await import('@chatsearch/auth')
      const { requireProject, withDatabase } = await import('../database.js')
      const keys = await withDatabase(env, async (db) => {
        await requireProject(db, projectId)
        return await listKeys(db, projectId)
      })
      print(keys, keys.length === 0
        ? 'no keys'
        : keys.map((k) => `${k.id}  ${k.service.padEnd(6)}  ${k.hint}  ${k.username}  ${k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`}  ${k.last_used_at === null ? 'never used' : `last used ${k.last_used_at}`}${k.origins.length > 0 ? `  origins ${k.origins.join(',')}` : ''}`).join('\n'))
    })

  key.command('revoke')
    .description('revoke a credential; every running service stops accepting it')
    .argument('<keyId>', 'the credential (key_…)')
    .action(async (keyId: string) => {
      const { revokeKey } = await import('@chatsearch/auth')
      const { announceRevocation, withDatabase } = await import('../database.js')
      const revoked = await withDatabase(env, (db) => revokeKey(db, keyId))
      if (!revoked) throw new CommandError(`no key ${keyId}`)
      const announced = await announceRevocation(env, keyId)
      print({ id: keyId, revoked: true, announced }, announced
        ? `revoked ${keyId}; every replica stops accepting it within a second`
        : `revoked ${keyId}; Redis could not be told, so replicas stop accepting it within AUTH_CACHE_TTL_MS (5 s by default)`)
    })
}
