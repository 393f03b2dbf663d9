import t from 'tap'
import { readFile } from 'node:fs/promises'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { cli, packageDir } from './run.js'

// Nothing here may reach a database: one that does fails on this address, with exit code 1.
const run = (...args: string[]) => cli(args, { DATABASE_URL: 'postgres://127.0.0.1:9/none' })

t.test('help at every level, from the top to a command', async (t) => {
  const overview = await run('--help')
  t.equal(overview.code, 0)
  t.match(overview.stdout, /^Usage: pnpm cli \[options\] \[command\]/)
  for (const group of ['project', 'key', 'catalog', 'knowledge', 'tasks']) t.match(overview.stdout, new RegExp(`\\n  ${group} `), `lists ${group}`)
  t.match(overview.stdout, /Exit codes: 0 done, 1 .*, 2 /)
  t.same(await run(), overview, 'no command: the overview, exit code 0')

  const key = await run('key', '--help')
  t.equal(key.code, 0)
  t.match(key.stdout, /^Usage: pnpm cli key /)
  for (const action of ['create', 'list', 'revoke']) t.match(key.stdout, new RegExp(`\\n  ${action} `), `key lists ${action}`)

  const create = await run('key', 'create', '--help')
  t.equal(create.code, 0)
  t.match(create.stdout, /^Usage: pnpm cli key create \[options\] <projectId>/)
  t.match(create.stdout, /--service <service> .*\(choices: "chat", "search",\s+"widget"\)/)
  t.match(create.stdout, /--username <name> .*\(default: "admin"\)/)
  t.match(create.stdout, /--origins <origin,…> +widget keys only, and required for them/)
  t.match(create.stdout, /--json/, 'the global --json is listed too')

  const catalog = await run('help', 'catalog')
  t.equal(catalog.code, 0)
  t.match(catalog.stdout, /^Usage: pnpm cli catalog /, '`help catalog` is `catalog --help`')
  t.match(catalog.stdout, /\n {2}settings \[options\] <projectId> /)
})

t.test('--version is the package version', async (t) => {
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string }
  t.same(await run('--version'), { code: 0, stdout: `${version}\n`, stderr: '' })
})

t.test('a mistake in the command: one line, exit code 2, JSON with --json', async (t) => {
  const cases: Array<[string[], string]> = [
    [['key'], 'pnpm cli key needs a command: create, list, revoke; see pnpm cli key --help'],
    [['key', 'crate', 'prj_x'], "unknown command 'crate' (Did you mean create?); see pnpm cli key --help"],
    [['frobnicate'], "unknown command 'frobnicate'; see pnpm cli --help"],
    [['project', 'create'], "missing required argument 'name'; see pnpm cli project create --help"],
    [['project', 'create', ' '], '<name> must not be blank; see pnpm cli project create --help'],
    [['project', 'create', 'x'.repeat(201)], 'a project name has at most 200 characters; see pnpm cli project create --help'],
    [['project', 'create', 'a', '--bogus'], "unknown option '--bogus'; see pnpm cli project create --help"],
    [['project', 'list', 'extra'], "too many arguments for 'list'. Expected 0 arguments but got 1; see pnpm cli project list --help"],
    [['key', 'create', 'prj_x'], "required option '--service <service>' not specified; see pnpm cli key create --help"],
    [['key', 'create', 'prj_x', '--service', 'mail'], "option '--service <service>' argument 'mail' is invalid. Allowed choices are chat, search, widget; see pnpm cli key create --help"],
    [['key', 'create', 'prj_x', '--service', 'widget'], 'a widget key needs --origins <origin,…>: the exact origins of the pages it is used on; see pnpm cli key create --help'],
    [['key', 'create', 'prj_x', '--service', 'chat', '--origins', 'https://shop.example'], '--origins is for widget keys only; a chat key is used from servers; see pnpm cli key create --help'],
    [['key', 'create', 'prj_x', '--service', 'widget', '--origins', 'https://shop.example,https://shop.example/'], '--origins: "https://shop.example/" is not an origin: expected scheme://host[:port] with no path, as a browser sends it in Origin (e.g. https://shop.example); did you mean https://shop.example?; see pnpm cli key create --help'],
    [['key', 'create', 'prj_x', '--service', 'chat', '--username', ''], '--username must have 1 to 200 characters; see pnpm cli key create --help'],
    [['catalog', 'import', 'prj_x'], "missing required argument 'file'; see pnpm cli catalog import --help"],
    [['knowledge', 'add', 'prj_x'], "missing required argument 'sources'; see pnpm cli knowledge add --help"],
    [['knowledge', 'add', 'prj_x', 'https://shop.example/', 'faq.md'], 'give one URL to crawl, or files, not both; see pnpm cli knowledge add --help'],
    [['knowledge', 'add', 'prj_x', 'faq.md', '--max-pages', '5'], '--max-pages is for a crawl; see pnpm cli knowledge add --help'],
    [['knowledge', 'add', 'prj_x', 'https://shop.example/', '--max-pages', '0'], "option '--max-pages <n>' argument '0' is invalid. expected a whole number from 1 to 5000; see pnpm cli knowledge add --help"],
    [['knowledge', 'add', 'prj_x', 'faq.md', '--url', 'shop.example'], '--url must be an http or https URL that parses, with a host, of at most 2048 characters; see pnpm cli knowledge add --help'],
    [['knowledge', 'add', 'prj_x', 'faq.md', '--url', 'https://shop.example:70000/help'], '--url must be an http or https URL that parses, with a host, of at most 2048 characters; see pnpm cli knowledge add --help'],
    [['knowledge', 'add', 'prj_x', 'https://'], 'https:// is not a URL that parses, with a host; see pnpm cli knowledge add --help'],
    [['knowledge', 'add', 'prj_x', 'http://shop.example:99999/'], 'http://shop.example:99999/ is not a URL that parses, with a host; see pnpm cli knowledge add --help'],
    [['knowledge', 'list', 'prj_x', '--kind', 'pdf'], "option '--kind <kind>' argument 'pdf' is invalid. Allowed choices are page, file, web, faq; see pnpm cli knowledge list --help"],
    [['tasks', 'prj_x', '--wait'], '--wait follows one task: give its id; see pnpm cli tasks --help'],
    [['tasks', 'prj_x', 'some-id', '--status', 'failed'], '--status and --type filter the list: not with a task id; see pnpm cli tasks --help']
  ]
  for (const [args, message] of cases) {
    t.same(await run(...args), { code: 2, stdout: '', stderr: `error: ${message}\n` }, args.join(' '))
  }
  const json = await run('project', 'create', '--json')
  t.equal(json.code, 2)
  t.equal(json.stdout, '')
  t.same(JSON.parse(json.stderr), { error: "missing required argument 'name'" })
})

t.test('a reader that closes the pipe early (`| head -1`) ends the command quietly', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--help'], {
    cwd: packageDir, env: { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:9/none' }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString() })
  // Closed before the help is written: the write fails with EPIPE, as it does behind `head`.
  child.stdout.destroy()
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  t.equal(code, 0)
  t.equal(stderr, '', 'no stack trace')
})
