import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
import { catalogCommands } from './commands/catalog.js'
import type { CommandContext } from './commands/context.js'
import { keyCommands } from './commands/key.js'
import { knowledgeCommands } from './commands/knowledge.js'
import { projectCommands } from './commands/project.js'
import { taskCommands } from './commands/tasks.js'
import { userCommands } from './commands/user.js'
import { UsageError } from './errors.js'

/**
 * Each group of commands adds itself to the program; a new group is one more file and one more entry.
 * A command loads what it runs (the database, the engines, the services' stores) in its action, when it
 * runs: help and usage errors then answer in well under a second instead of after loading every service.
 */
const groups = [projectCommands, keyCommands, userCommands, catalogCommands, knowledgeCommands, taskCommands]

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

const footer = `
Data: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (default ./.data);
catalogs and knowledge: DATA_DIR/search (or MEILI_URL). EMBEDDINGS=false skips
embeddings on import; CRAWL_ALLOW_PRIVATE_NETWORKS=true lets a crawl reach
internal addresses. Ctrl-C hands a task running here back to the queue.
Exit codes: 0 done, 1 the command could not be done, 2 a mistake in the command itself.`

function buildProgram (context: CommandContext): Command {
  const program = new Command('pnpm cli')
    .description('Administer projects, credentials, console users, catalogs, knowledge and tasks, whether or not the services run.')
    .option('--json', 'print results as JSON (errors as {"error": "…"} on stderr)')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    // Commander would print its own errors and exit; they are reported once, below, with our exit codes.
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .exitOverride()
    .addHelpText('after', footer)
  for (const add of groups) add(program, context)
  return program
}

/** The deepest command named on the command line, for the hint after a usage error. */
function commandOf (program: Command, argv: string[]): Command {
  let command = program
  for (const arg of argv) {
    const sub = command.commands.find((c) => c.name() === arg)
    if (sub !== undefined) command = sub
    else if (!arg.startsWith('-')) break
  }
  return command
}

function pathOf (command: Command): string {
  const names: string[] = []
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name())
  return names.join(' ')
}

interface Failure { message: string, usage: boolean }

function failureOf (err: unknown, command: Command): Failure {
  if (err instanceof CommanderError) {
    // A group called without one of its commands.
    if (err.code === 'commander.help') return { message: `${pathOf(command)} needs a command: ${command.commands.map((c) => c.name()).join(', ')}`, usage: true }
    return { message: err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').replace(/\.$/, ''), usage: true }
  }
  return { message: (err as Error).message, usage: err instanceof UsageError }
}

// A reader that stops early (`pnpm -s cli key list … | head -1`) closes the pipe: that ends the
// command quietly, as it does for other Unix tools, instead of a stack trace from an unhandled EPIPE.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err
  process.exit(0)
})

const argv = process.argv.slice(2)
const lines: string[] = []
const program = buildProgram({
  env: process.env,
  print: (value, human) => { lines.push(program.opts().json === true ? JSON.stringify(value) : human) }
})

try {
  // Without a command, the overview (as `--help` would).
  await program.parseAsync(argv.every((a) => a === '--json') ? ['--help'] : argv, { from: 'user' })
  if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n')
} catch (err) {
  if (err instanceof CommanderError && err.exitCode === 0) {
    // --help or --version: already printed.
  } else {
    const command = commandOf(program, argv)
    const { message, usage } = failureOf(err, command)
    if (argv.includes('--json')) process.stderr.write(JSON.stringify({ error: message }) + '\n')
    else process.stderr.write(`error: ${message}${usage ? `; see ${pathOf(command)} --help` : ''}\n`)
    process.exitCode = usage ? 2 : 1
  }
}
