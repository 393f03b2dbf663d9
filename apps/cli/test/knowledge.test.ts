import t from 'tap'
import { spawn } from 'node:child_process'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { createPool, migrate } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/testkit'
import { webhookMigrations } from '@chatsearch/webhooks'
import { cli, exited, packageDir } from './run.js'

// About 45 commands, each a process of its own, with crawls and tasks: 190 s in CI alone, and past the
// package's 300 s when the machine is shared, although each step was answered.
t.setTimeout(600_000)

interface TestLike { teardown: (fn: () => unknown) => void }

/** A help site on 127.0.0.1: three pages linked from the home page, and a link to a page that is missing. */
async function startSite (t: TestLike, hold?: Promise<void>): Promise<{ origin: string, requests: string[] }> {
  const pages: Record<string, string> = {
    '/': '<h1>Help centre</h1><p>Answers about orders.</p><a href="/shipping">Shipping</a> <a href="/returns">Returns</a> <a href="/gone">Gone</a>',
    '/shipping': '<h1>Shipping</h1><p>Parcels leave the warehouse within two working days.</p>',
    '/returns': '<h1>Returns</h1><p>Send anything back within thirty days for a full refund.</p>'
  }
  const requests: string[] = []
  const answer = (path: string, res: ServerResponse) => {
    const body = pages[path]
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>${/<h1>(.*?)<\/h1>/.exec(body)![1]}</title></head><body><main>${body}</main></body></html>`)
  }
  const server = createServer((req, res) => {
    requests.push(req.url ?? '')
    if (hold === undefined) answer(req.url ?? '', res)
    else hold.then(() => { if (!res.destroyed) answer(req.url ?? '', res) }, () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

async function pdfOf (lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([600, 800])
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 740 - 18 * i, size: 12, font }))
  return await doc.save()
}

t.test('knowledge add, list and delete; tasks', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-knowledge-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const env = { DATABASE_URL: await testDatabase(t), DATA_DIR: dir, EMBEDDINGS: 'false', CRAWL_ALLOW_PRIVATE_NETWORKS: 'true' }
  const run = (...args: string[]) => cli(args, env)
  const json = async (...args: string[]) => {
    const res = await run(...args, '--json')
    t.equal(res.code, 0, args.join(' '), { stderr: res.stderr })
    return JSON.parse(res.stdout)
  }
  const project = await json('project', 'create', 'Shop')
  // The project's webhook for tasks: a task this command runs is announced as a service's is.
  const db = createPool(env.DATABASE_URL, 1)
  t.teardown(() => db.end())
  await migrate(db, 'webhooks', webhookMigrations)
  await db.query("INSERT INTO webhook_endpoints (id, project_id, url, events, secret) VALUES (gen_random_uuid(), $1, 'https://hooks.shop.example/', '{task.succeeded,task.failed}', 'whsec_x')", [project.id])

  const markdown = join(dir, 'returns.md')
  await writeFile(markdown, '# Returns\n\nSend anything back within thirty days.\n\n## Refunds\n\nRefunds reach your card within five days.\n')
  const pdf = join(dir, 'manual.pdf')
  await writeFile(pdf, await pdfOf(['Assembly manual', 'Fix the legs to the frame with the four long screws.']))

  const added = await run('knowledge', 'add', project.id, markdown, pdf, '--url', 'https://shop.example/help', '--json')
  t.equal(added.code, 0, added.stderr)
  const files = JSON.parse(added.stdout)
  t.match(files, { type: 'files', status: 'succeeded', progress: { done: 2, total: 2 }, error: null, details: { files: 2, indexed: 2, unchanged: 0, skipped: [] } })
  t.same(files.details.documents.map((d: { file: string }) => d.file), ['returns.md', 'manual.pdf'])
  t.match(added.stderr, new RegExp(`queued files task ${files.id}\n`))
  t.match(added.stderr, /indexing \[#{24}\] 100% 2\/2 files/, 'progress on stderr')
  const { rows: announced } = await db.query("SELECT event, status, payload->>'id' AS task FROM webhook_deliveries WHERE payload->>'id' = $1", [files.id])
  t.same(announced, [{ event: 'task.succeeded', status: 'pending', task: files.id }], 'the task\'s end is queued for the project\'s webhook, for a service to send')

  const listed = await json('knowledge', 'list', project.id)
  t.equal(listed.total, 2)
  t.same(listed.results.map((d: { id: string }) => d.id).sort(), files.details.documents.map((d: { id: string }) => d.id).sort())
  t.match(listed.results, [{ kind: 'file', url: 'https://shop.example/help' }, { kind: 'file', url: 'https://shop.example/help' }])
  t.ok(listed.results.every((d: { chunks: number }) => d.chunks > 0), 'the PDF has text, chunked like the Markdown')
  t.match((await run('knowledge', 'list', project.id)).stdout, /^file-returns-md-\w+ {2}file {4}2 chunks {2}Returns {2}https:\/\/shop\.example\/help$/m)

  const again = await run('knowledge', 'add', project.id, markdown, pdf, '--url', 'https://shop.example/help')
  t.equal(again.code, 0, again.stderr)
  t.match(again.stdout, /^task [\w-]+ \(files\) succeeded in [0-9.]+s\nindexed 2 files: 0 new or changed, 2 unchanged\n {2}file-returns-md-\w+ {2}returns\.md \(2 chunks\)\n/, 'a re-added file is unchanged')

  await t.test('a bad file refuses the command, nothing queued', async (t) => {
    const before = (await json('tasks', project.id)).total
    const binary = join(dir, 'notes.txt')
    await writeFile(binary, Buffer.from('hello\x00\xff', 'latin1'))
    const refused = await run('knowledge', 'add', project.id, markdown, binary)
    t.equal(refused.code, 1)
    t.match(refused.stderr, new RegExp(`^error: ${binary.replace(/[.]/g, '\\.')} is not text.*; nothing was queued\n$`))
    t.match((await run('knowledge', 'add', project.id, join(dir, 'slides.pptx'))).stderr, /slides\.pptx: no such file; nothing was queued/)
    t.equal((await json('tasks', project.id)).total, before, 'no task was queued')
  })

  const site = await startSite(t)
  const crawled = await run('knowledge', 'add', project.id, `${site.origin}/`, '--max-pages', '10')
  t.equal(crawled.code, 0, crawled.stderr)
  t.match(crawled.stdout, new RegExp(`^task [\\w-]+ \\(crawl\\) succeeded in [0-9.]+s\nindexed 3 pages: 3 new or changed, 0 unchanged, 0 removed \\(no longer on the site\\)\nskipped 1 URL:\n {2}${site.origin}/gone: .*404`))
  t.match(crawled.stderr, /crawling \[#{24}\] 100%/)
  const web = await json('knowledge', 'list', project.id, '--kind', 'web')
  t.same(web.results.map((d: { url: string }) => d.url).sort(), [`${site.origin}/`, `${site.origin}/returns`, `${site.origin}/shipping`])

  const tasks = await json('tasks', project.id)
  t.same(tasks.results.map((task: { type: string }) => task.type), ['crawl', 'files', 'files'], 'newest first')
  t.same((await json('tasks', project.id, '--type', 'files', '--limit', '1')).results.map((task: { id: string }) => task.id), [tasks.results[1].id])
  const crawl = tasks.results[0]
  const shown = await run('tasks', project.id, crawl.id)
  t.equal(shown.code, 0, shown.stderr)
  t.match(shown.stdout, new RegExp(`^task ${crawl.id} \\(crawl\\) succeeded in [0-9.]+s\nenqueued [0-9T:.-]+Z, started [0-9T:.-]+Z, finished [0-9T:.-]+Z\nindexed 3 pages`))
  t.match(await json('tasks', project.id, crawl.id), { id: crawl.id, status: 'succeeded', details: { pages: 3, indexed: 3, unchanged: 0 } }, 'the details of the crawl as stored')

  await t.test('a failed task: its error, exit code 1', async (t) => {
    const guarded = await cli(['knowledge', 'add', project.id, `${site.origin}/`], { ...env, CRAWL_ALLOW_PRIVATE_NETWORKS: 'false' })
    t.equal(guarded.code, 1)
    t.match(guarded.stderr, /error: task [\w-]+ failed: .*internal address.*CRAWL_ALLOW_PRIVATE_NETWORKS=true/)
  })

  await t.test('--no-wait queues; tasks --wait runs and follows it', async (t) => {
    const queued = await json('knowledge', 'add', project.id, markdown, '--url', 'https://shop.example/help', '--no-wait')
    t.match(queued, { task_id: /^[\w-]+$/ })
    t.match(await json('tasks', project.id, queued.task_id), { status: 'enqueued' }, 'no search service runs: it waits')
    const followed = await run('tasks', project.id, queued.task_id, '--wait')
    t.equal(followed.code, 0, followed.stderr)
    t.match(followed.stdout, /\(files\) succeeded[^]*indexed 1 file: 0 new or changed, 1 unchanged/)
  })

  await t.test('tasks --cancel: a queued task never runs; an ended one cannot be canceled', async (t) => {
    const queued = await json('knowledge', 'add', project.id, markdown, '--url', 'https://shop.example/help', '--no-wait')
    const canceled = await run('tasks', project.id, queued.task_id, '--cancel')
    t.equal(canceled.code, 0, canceled.stderr)
    t.match(canceled.stdout, new RegExp(`^task ${queued.task_id} \\(files\\) canceled`))
    t.match(await json('tasks', project.id, queued.task_id), { status: 'canceled', started_at: null })
    const followed = await run('tasks', project.id, queued.task_id, '--wait')
    t.equal(followed.code, 1)
    t.match(followed.stderr, new RegExp(`^error: task ${queued.task_id} was canceled at [0-9T:.-]+Z; what it had done stays\n$`))
    const ended = await run('tasks', project.id, crawl.id, '--cancel')
    t.same(ended, { code: 1, stdout: '', stderr: `error: task ${crawl.id} already succeeded: nothing is left to cancel\n` })
    t.match((await run('tasks', project.id, '--cancel')).stderr, /--cancel cancels one task: give its id/)
  })

  await t.test('Ctrl-C hands the task back to the queue whole', async (t) => {
    let release = () => {}
    const slow = await startSite(t, new Promise<void>((resolve) => { release = resolve }))
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'knowledge', 'add', project.id, `${slow.origin}/`], {
      cwd: packageDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString() })
    // The crawl runs here once the site is asked for its first URL (robots.txt).
    while (slow.requests.length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50))
    child.kill('SIGINT')
    t.equal(await exited(child, 20_000), 1)
    const id = /queued crawl task ([\w-]+)/.exec(stderr)?.[1] ?? ''
    t.match(stderr, new RegExp(`error: interrupted: task ${id} was handed back to the queue;.*\`pnpm -s cli tasks ${project.id} ${id} --wait\``))
    t.match(await json('tasks', project.id, id), { status: 'enqueued', finished_at: null })
    release()
    const resumed = await run('tasks', project.id, id, '--wait')
    t.equal(resumed.code, 0, resumed.stderr)
    t.match(resumed.stdout, /\(crawl\) succeeded[^]*indexed 3 pages/)
  })

  const total = (await json('knowledge', 'list', project.id)).total
  const deleted = await json('knowledge', 'delete', project.id, files.details.documents[0].id)
  t.same(deleted, { id: files.details.documents[0].id, deleted: true })
  t.equal((await json('knowledge', 'list', project.id)).total, total - 1)
  const missing = await run('knowledge', 'delete', project.id, files.details.documents[0].id)
  t.equal(missing.code, 1)
  t.equal(missing.stderr, `error: no knowledge document ${files.details.documents[0].id} in project ${project.id}\n`)

  await t.test('an unknown project or task', async (t) => {
    for (const args of [['knowledge', 'add', 'prj_nope', markdown], ['knowledge', 'list', 'prj_nope'], ['tasks', 'prj_nope']]) {
      t.same(await run(...args), { code: 1, stdout: '', stderr: 'error: no project prj_nope\n' }, args.join(' '))
    }
    t.same(await run('tasks', project.id, '00000000-0000-4000-8000-000000000000'), { code: 1, stdout: '', stderr: `error: no task 00000000-0000-4000-8000-000000000000 in project ${project.id}\n` })
  })
})
