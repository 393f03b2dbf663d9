import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { openForPostgresUser, startEmbeddedPostgres } from '@chatsearch/shell'
import { Redis } from 'ioredis'
import { REVOCATION_CHANNEL } from '@chatsearch/auth'
import { freePort, startRedis, testDatabase } from '@chatsearch/testkit'
import { cli } from './run.js'

t.test('admin CLI on DATABASE_URL', async (t) => {
  const env = { DATABASE_URL: await testDatabase(t) }
  const run = (...args: string[]) => cli(args, env)

  const created = await run('project', 'create', 'Acme Outdoor', '--json')
  t.equal(created.code, 0, created.stderr)
  const project = JSON.parse(created.stdout)
  t.same(Object.keys(project).sort(), ['created_at', 'id', 'name'])
  t.equal(project.name, 'Acme Outdoor')

  const listed = JSON.parse((await run('project', 'list', '--json')).stdout)
  t.same(listed.map((p: { id: string }) => p.id), [project.id])

  const key = JSON.parse((await run('key', 'create', project.id, '--service', 'chat', '--username', 'ops', '--json')).stdout)
  t.same(Object.keys(key).sort(), ['id', 'key', 'project_id', 'service', 'username'])
  t.match(key.key, /^csk_chat_[0-9A-Za-z]{40}$/)
  t.equal(key.project_id, project.id)
  t.equal(key.username, 'ops')
  const searchKey = JSON.parse((await run('key', 'create', project.id, '--service', 'search', '--json')).stdout)
  t.equal(searchKey.service, 'search')
  t.equal(searchKey.username, 'admin', 'default username')

  const widget = await run('key', 'create', project.id, '--service', 'widget', '--origins', 'https://shop.example,http://localhost:8080', '--json')
  t.equal(widget.code, 0, widget.stderr)
  const widgetKey = JSON.parse(widget.stdout)
  t.same(Object.keys(widgetKey).sort(), ['id', 'key', 'origins', 'project_id', 'service', 'username'], 'a widget key with its origins')
  t.match(widgetKey.key, /^csk_pub_[0-9A-Za-z]{40}$/)
  t.same(widgetKey.origins, ['https://shop.example', 'http://localhost:8080'])
  t.equal(widgetKey.service, 'widget')

  const keys = await run('key', 'list', project.id, '--json')
  t.notMatch(keys.stdout, key.key, 'no secret in a listing')
  const keyList = JSON.parse(keys.stdout)
  t.same(keyList.map((k: { id: string }) => k.id).sort(), [key.id, searchKey.id, widgetKey.id].sort())
  t.same(keyList.find((k: { id: string }) => k.id === widgetKey.id).origins, widgetKey.origins, 'listed with its origins')
  t.match((await run('key', 'list', project.id)).stdout, /origins https:\/\/shop\.example,http:\/\/localhost:8080/)
  t.ok(keyList.every((k: { revoked_at: null }) => k.revoked_at === null))

  const revoked = await run('key', 'revoke', key.id, '--json')
  t.same(JSON.parse(revoked.stdout), { id: key.id, revoked: true, announced: true })
  const after = JSON.parse((await run('key', 'list', project.id, '--json')).stdout)
  t.type(after.find((k: { id: string }) => k.id === key.id).revoked_at, 'string')

  const human = await run('key', 'list', project.id)
  t.match(human.stdout, /revoked/)
  t.match(human.stdout, /active/)

  t.test('with REDIS_URL, a revocation is published to the services', async (t) => {
    const redis = await startRedis(t)
    const subscriber = new Redis(redis.url)
    t.teardown(() => subscriber.disconnect())
    await subscriber.subscribe(REVOCATION_CHANNEL)
    const heard = new Promise((resolve) => subscriber.once('message', (_channel, keyId) => resolve(keyId)))
    const res = await cli(['key', 'revoke', searchKey.id], { ...env, REDIS_URL: redis.url })
    t.equal(res.code, 0, res.stderr)
    t.match(res.stdout, /within a second/)
    t.equal(await heard, searchKey.id)
    await redis.kill()
    const unheard = await cli(['key', 'revoke', searchKey.id, '--json'], { ...env, REDIS_URL: redis.url })
    t.equal(unheard.code, 0, 'the revocation itself stands when Redis is down')
    t.same(JSON.parse(unheard.stdout), { id: searchKey.id, revoked: true, announced: false })
  })

  t.test('what cannot be done is explained, with exit code 1 (2 for a bad argument)', async (t) => {
    const cases: Array<[string[], number, RegExp]> = [
      [['key', 'create', 'prj_nope', '--service', 'chat'], 1, /no project prj_nope/],
      [['key', 'revoke', 'key_nope'], 1, /no key key_nope/],
      [['key', 'list', 'prj_nope'], 1, /no project/],
      [['key', 'create', project.id, '--service', 'widget', '--origins', 'https://shop.example/cart'], 2, /is not an origin.*did you mean https:\/\/shop\.example\?/],
      [['key', 'create', project.id, '--service', 'widget'], 2, /origin/]
    ]
    for (const [args, code, message] of cases) {
      const res = await run(...args)
      t.equal(res.code, code, args.join(' '))
      t.match(res.stderr, message, args.join(' '))
      t.equal(res.stdout, '', 'nothing on stdout')
      t.equal(res.stderr.trimEnd().split('\n').length, 1, `one line on stderr: ${args.join(' ')}`)
    }
    const json = await run('key', 'revoke', 'key_nope', '--json')
    t.same(JSON.parse(json.stderr), { error: 'no key key_nope' })
  })
})

t.test('admin CLI on the embedded database, whether or not the services run', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-cli-'))
  await openForPostgresUser(dataDir)
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const env = { DATA_DIR: dataDir, PG_PORT: String(await freePort()), DATABASE_URL: '' }

  const first = await cli(['project', 'create', 'Offline', '--json'], env)
  t.equal(first.code, 0, first.stderr)
  const { id } = JSON.parse(first.stdout)

  // As when `pnpm start` is running: the CLI joins that cluster and leaves it running.
  const running = await startEmbeddedPostgres({ dataDir, port: Number(env.PG_PORT) })
  t.teardown(() => running.stop())
  t.equal(running.owned, true)
  const listed = await cli(['project', 'list', '--json'], env)
  t.same(JSON.parse(listed.stdout).map((p: { id: string }) => p.id), [id], 'the same data')
  const client = new pg.Client({ connectionString: running.url })
  await client.connect()
  t.equal((await client.query('SELECT count(*)::int AS n FROM projects')).rows[0].n, 1, 'cluster still up after the CLI')
  await client.end()
})
