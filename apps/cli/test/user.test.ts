import t from 'tap'
import { execFile } from 'node:child_process'
import { testDatabase } from '@chatsearch/testkit'
import { cli, packageDir } from './run.js'

/** The CLI with `input` piped to its stdin. */
function cliWithStdin (args: string[], env: Record<string, string>, input: string): Promise<{ code: number, stdout: string, stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: packageDir, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : Number(err.code ?? 1), stdout, stderr }))
    child.stdin!.end(input)
  })
}

t.test('console users from the CLI', async (t) => {
  const env = { DATABASE_URL: await testDatabase(t) }
  const run = (...args: string[]) => cli(args, env)

  const created = await cliWithStdin(['user', 'create', 'alice', '--password-stdin', '--json'], env, 'a long enough password\n')
  t.equal(created.code, 0, created.stderr)
  t.same(Object.keys(JSON.parse(created.stdout)).sort(), ['created_at', 'username'], 'a password given is not printed')
  const again = await cliWithStdin(['user', 'create', 'alice', '--password-stdin'], env, 'another password!!\n')
  t.equal(again.code, 1)
  t.match(again.stderr, /exists already/)
  const short = await cliWithStdin(['user', 'create', 'bob', '--password-stdin'], env, 'short\n')
  t.equal(short.code, 2, 'a password too short is a usage error')
  t.equal((await run('user', 'create', 'bad name')).code, 2, 'a username with a space')

  const generated = JSON.parse((await run('user', 'create', 'bob', '--json')).stdout) as { password: string }
  t.match(generated.password, /^[0-9A-Za-z]{20}$/, 'without --password-stdin a password is made and printed once')

  t.same(JSON.parse((await run('user', 'list', '--json')).stdout).map((u: { username: string }) => u.username), ['alice', 'bob'])
  t.equal((await cliWithStdin(['user', 'password', 'alice', '--password-stdin'], env, 'a new long password\n')).code, 0)
  t.match((await cliWithStdin(['user', 'password', 'nobody', '--password-stdin'], env, 'a new long password\n')).stderr, /no user nobody/)

  const project = JSON.parse((await run('project', 'create', 'Shop', '--json')).stdout) as { id: string }
  const member = await run('project', 'add-member', project.id, 'alice', '--role', 'owner', '--json')
  t.equal(member.code, 0, member.stderr)
  t.match(JSON.parse(member.stdout), { project_id: project.id, username: 'alice', role: 'owner' })
  t.match((await run('project', 'add-member', project.id, 'alice')).stderr, /already a member/)
  t.match((await run('project', 'add-member', project.id, 'ghost')).stderr, /no user ghost/)
  t.match((await run('project', 'add-member', 'prj_nope', 'alice')).stderr, /no project prj_nope/)
  t.equal((await run('project', 'add-member', project.id, 'bob', '--role', 'admin')).code, 2)

  t.equal((await run('user', 'delete', 'alice')).code, 0)
  t.match((await run('user', 'delete', 'alice')).stderr, /no user alice/)
  t.same(JSON.parse((await run('user', 'list', '--json')).stdout).map((u: { username: string }) => u.username), ['bob'])
})
