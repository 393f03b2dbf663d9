import { parseArgs } from 'node:util'
import { createKey, createProject, getProject, listKeys, listProjects, revokeKey, services, type Service } from '@chatsearch/auth'
import { readSearchEnv, searchConfig } from '@chatsearch/search'
import { announceRevocation, withDatabase } from './database.js'
import { catalogSettings, importCatalog } from './catalog.js'

const usage = `Usage: pnpm cli <command> [--json]

  project create <name>                                   create a project
  project list                                            list projects
  key create <projectId> --service chat|search [--username NAME]
                                                          issue a credential (the secret is shown only once)
  key list <projectId>                                    list a project's credentials (no secrets)
  key revoke <keyId>                                      revoke a credential
  catalog import <projectId> <file.json|.jsonl|.csv>      add or replace catalog items (progress on stderr)
  catalog settings <projectId> [--set settings.json]      show or replace the catalog's index settings

Data: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (default ./.data);
catalogs: DATA_DIR/search. EMBEDDINGS=false skips embeddings on import.`

/** A mistake in how the command was called: exit code 2 and the usage text. */
class UsageError extends Error {}
/** The command was understood but cannot be done (unknown project or key): exit code 1. */
class CommandError extends Error {}

/** The catalog commands read the search service's variables (DATA_DIR, EMBEDDINGS, EMBEDDINGS_URL…). */
const catalogConfig = (env: NodeJS.ProcessEnv) => searchConfig(readSearchEnv(env), '')

interface Output { json: boolean, lines: string[] }

function print (out: Output, value: unknown, human: string) {
  out.lines.push(out.json ? JSON.stringify(value) : human)
}

function argument (positionals: string[], index: number, name: string): string {
  const value = positionals[index]
  if (value === undefined || value.trim() === '') throw new UsageError(`missing <${name}>`)
  if (positionals.length > index + 1) throw new UsageError(`unexpected argument: ${positionals[index + 1]}`)
  return value
}

function serviceOption (value: string | undefined): Service {
  if (value === undefined) throw new UsageError('--service chat|search is required')
  if (!(services as readonly string[]).includes(value)) throw new UsageError(`--service must be chat or search, not ${value}`)
  return value as Service
}

async function run (argv: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, service: { type: 'string' }, username: { type: 'string' }, set: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
  })
  const out: Output = { json: values.json, lines: [] }
  const [group, action] = positionals
  if (values.help === true || group === undefined || group === 'help') return [usage]
  const command = `${group} ${action ?? ''}`.trim()

  switch (command) {
    case 'project create': {
      const name = argument(positionals, 2, 'name')
      if (name.length > 200) throw new UsageError('a project name has at most 200 characters')
      const project = await withDatabase(env, (db) => createProject(db, name))
      print(out, project, `created project ${project.id} (${project.name})`)
      break
    }
    case 'project list': {
      argument([...positionals, '-'], 2, '')
      const projects = await withDatabase(env, listProjects)
      print(out, projects, projects.length === 0 ? 'no projects' : projects.map((p) => `${p.id}  ${p.created_at}  ${p.name}`).join('\n'))
      break
    }
    case 'key create': {
      const projectId = argument(positionals, 2, 'projectId')
      const service = serviceOption(values.service)
      const username = values.username ?? 'admin'
      if (username.trim() === '' || username.length > 200) throw new UsageError('--username must have 1 to 200 characters')
      const key = await withDatabase(env, async (db) => {
        if (await getProject(db, projectId) === undefined) throw new CommandError(`no project ${projectId}`)
        return await createKey(db, projectId, service, username)
      })
      print(out, key, `created ${service} key ${key.id} for ${username}\n\n  ${key.key}\n\nStore it now: it is not shown again.`)
      break
    }
    case 'key list': {
      const projectId = argument(positionals, 2, 'projectId')
      const keys = await withDatabase(env, async (db) => {
        if (await getProject(db, projectId) === undefined) throw new CommandError(`no project ${projectId}`)
        return await listKeys(db, projectId)
      })
      print(out, keys, keys.length === 0
        ? 'no keys'
        : keys.map((k) => `${k.id}  ${k.service.padEnd(6)}  ${k.hint}  ${k.username}  ${k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`}`).join('\n'))
      break
    }
    case 'key revoke': {
      const keyId = argument(positionals, 2, 'keyId')
      const revoked = await withDatabase(env, (db) => revokeKey(db, keyId))
      if (!revoked) throw new CommandError(`no key ${keyId}`)
      const announced = await announceRevocation(env, keyId)
      print(out, { id: keyId, revoked: true, announced }, announced
        ? `revoked ${keyId}; every replica stops accepting it within a second`
        : `revoked ${keyId}; Redis could not be told, so replicas stop accepting it within AUTH_CACHE_TTL_MS (5 s by default)`)
      break
    }
    case 'catalog import': {
      const projectId = positionals[2]
      const file = argument(positionals, 3, 'file')
      if (projectId === undefined) throw new UsageError('missing <projectId>')
      const result = await importCatalog(env, catalogConfig(env), projectId, file)
      print(out, result, `imported ${result.received} items into ${projectId} in ${result.seconds}s: ${result.indexed} new or changed, ${result.unchanged} unchanged; ${result.total} in the catalog`)
      break
    }
    case 'catalog settings': {
      const projectId = argument(positionals, 2, 'projectId')
      const settings = await catalogSettings(env, catalogConfig(env), projectId, values.set)
      print(out, settings, Object.entries(settings).map(([k, v]) => `${k}: ${(v as string[]).join(', ') || '(none)'}`).join('\n'))
      break
    }
    default:
      throw new UsageError(`unknown command: ${command}`)
  }
  return out.lines
}

try {
  const lines = await run(process.argv.slice(2), process.env)
  process.stdout.write(lines.join('\n') + '\n')
} catch (err) {
  const json = process.argv.includes('--json')
  const message = (err as Error).message
  if (json) process.stderr.write(JSON.stringify({ error: message }) + '\n')
  else process.stderr.write(`error: ${message}\n${err instanceof UsageError ? `\n${usage}\n` : ''}`)
  process.exitCode = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true ? 2 : 1
}
