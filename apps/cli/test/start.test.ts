import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from 'node:net'
import { openForPostgresUser } from '@chatsearch/shell'
import { freePort } from '@chatsearch/testkit'
import { exited, startStack, waitForOutput } from './run.js'

const portOpen = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1')
  socket.once('connect', () => { socket.destroy(); resolve(true) })
  socket.once('error', () => resolve(false))
})

t.test('pnpm start: embedded stack, demo project, clean stop, data kept', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-start-'))
  await openForPostgresUser(dataDir)
  t.teardown(() => rm(dataDir, { recursive: true, force: true }))
  const env = {
    DATA_DIR: dataDir,
    PG_PORT: String(await freePort()),
    CHAT_PORT: String(await freePort()),
    SEARCH_PORT: String(await freePort()),
    CONSOLE_PORT: String(await freePort()),
    DEMO_SHOP_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    // Embedding the demo catalog takes a while on a busy machine; the search tests cover hybrid.
    EMBEDDINGS: 'false'
  }

  const first = startStack(env)
  t.teardown(() => { first.kill('SIGKILL') })
  const out = await waitForOutput(first, 'Press Ctrl-C to stop.', 180_000)
  const chatKey = /chat key\s+(csk_chat_\w+)/.exec(out)?.[1]
  const projectId = /Demo project (prj_\w+)/.exec(out)?.[1]
  t.ok(chatKey, 'banner shows the chat key')
  t.match(out, /search key\s+csk_search_\w+/)
  t.match(out, /curl -s http:\/\/127\.0\.0\.1:\d+\/newUserMessage/)
  t.notMatch(out, /application\/json' {2,}-d/, 'every curl of the banner breaks its line before -d, as it is written')

  const res = await fetch(`http://127.0.0.1:${env.CHAT_PORT}/newUserMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${chatKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user_message: 'Hello!', consumer_id: 'starter' })
  })
  t.equal(res.status, 200)
  const searchKey = /search key\s+(csk_search_\w+)/.exec(out)?.[1]
  const search = await fetch(`http://127.0.0.1:${env.SEARCH_PORT}/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${searchKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ search_term: 'hiking boots', limit: 3 })
  })
  const found = await search.json() as { hits: unknown[], estimatedTotalHits: number }
  t.equal(search.status, 200)
  t.ok(found.estimatedTotalHits > 0, 'the demo catalog was imported')

  const knowledge = await fetch(`http://127.0.0.1:${env.SEARCH_PORT}/knowledge/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${searchKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'how long does shipping take?', limit: 3 })
  })
  t.equal(knowledge.status, 200)
  const hits = (await knowledge.json() as { hits: Array<{ document_id: string, url: string, text: string }> }).hits
  t.ok(hits.some((h) => h.document_id === 'faq-shipping-time'), 'the demo FAQ answers the shipping question')
  t.ok(hits.some((h) => h.document_id === 'shipping' && h.url === 'https://demo-shop.example/help/shipping#delivery-times' && /3 to 5 working days/.test(h.text)),
    'and the shipping page\'s section, with its link')
  // The chat service answers from that knowledge through the search service, and hands off a refund.
  const ask = async (message: string) => await (await fetch(`http://127.0.0.1:${env.CHAT_PORT}/newUserMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${chatKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user_message: message, consumer_id: 'starter' })
  })).json() as { citations: Array<{ source: string, reference: string }>, handoff: boolean }
  t.match(await ask('How long does shipping take?'), { citations: [{ source: 'faq', reference: 'faq-shipping-time' }], handoff: false }, 'the FAQ answers')
  t.match(await ask('I want a refund for my last order'), { handoff: true }, 'a refund is handed off')
  // The console: its address and the demo sign-in in the banner; signed in, the demo project and its catalog.
  t.match(out, new RegExp(`console http://127\\.0\\.0\\.1:${env.CONSOLE_PORT}\\n`))
  const signIn = /console sign-in\s+(\S+) \/ (\S+)/.exec(out)
  t.equal(signIn?.[1], 'demo')
  const consoleUrl = `http://127.0.0.1:${env.CONSOLE_PORT}`
  const page = await fetch(consoleUrl)
  t.equal(page.status, 200, 'the console serves its web app (or the page saying it is not built)')
  t.match(page.headers.get('content-type'), /text\/html/)
  const session = await fetch(`${consoleUrl}/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: signIn?.[1], password: signIn?.[2] })
  })
  t.equal(session.status, 200, 'the demo sign-in works')
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!
  const projects = await (await fetch(`${consoleUrl}/api/projects`, { headers: { cookie } })).json() as { projects: Array<{ id: string, role: string }> }
  t.same(projects.projects.map((p) => [p.id, p.role]), [[projectId, 'owner']], 'demo owns the demo project')
  const searched = await fetch(`${consoleUrl}/api/projects/${projectId}/search`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': (await session.json() as { csrf_token: string }).csrf_token, 'content-type': 'application/json' },
    body: JSON.stringify({ search_term: 'hiking boots', limit: 1 })
  })
  t.ok((await searched.json() as { estimatedTotalHits: number }).estimatedTotalHits > 0, 'the console reaches the search service of the same process')

  // The sample shop page embeds the widget with the demo's widget key, which works from that page's origin only.
  const shopUrl = /Sample shop page with the chat widget: (\S+)/.exec(out)?.[1]
  t.equal(shopUrl, `http://127.0.0.1:${env.DEMO_SHOP_PORT}/`)
  const widgetKey = /widget key\s+(csk_pub_\w+)/.exec(out)?.[1]
  const shopPage = await (await fetch(shopUrl!)).text()
  t.ok(shopPage.includes(`<script src="http://127.0.0.1:${env.CHAT_PORT}/widget/v1/loader.js" data-key="${widgetKey}" async></script>`), 'the page embeds the widget with the key')
  t.equal((await fetch(`http://127.0.0.1:${env.CHAT_PORT}/widget/v1/loader.js`)).status, 200, 'which the chat service serves')
  const fromOrigin = (origin: string) => fetch(`http://127.0.0.1:${env.CHAT_PORT}/newUserMessage`, {
    method: 'POST', headers: { authorization: `Bearer ${widgetKey}`, 'content-type': 'application/json', origin }, body: JSON.stringify({ user_message: 'Hello!' })
  })
  t.equal((await fromOrigin(`http://127.0.0.1:${env.DEMO_SHOP_PORT}`)).status, 200, 'the widget key works from the page\'s origin')
  t.equal((await fromOrigin(`http://localhost:${env.DEMO_SHOP_PORT}`)).status, 200, 'and as localhost')
  t.equal((await fromOrigin('https://elsewhere.example')).status, 403, 'not from another')

  const listed = await fetch(`http://127.0.0.1:${env.SEARCH_PORT}/knowledge/documents`, { headers: { authorization: `Bearer ${searchKey}` } })
  t.equal((await listed.json() as { total: number }).total, 14, 'the demo knowledge base: 4 pages and 10 FAQs')

  first.kill('SIGINT')
  t.equal(await exited(first, 30_000), 0, 'Ctrl-C exits cleanly')
  t.equal(await portOpen(Number(env.PG_PORT)), false, 'PostgreSQL stopped too')
  t.equal(await portOpen(Number(env.CONSOLE_PORT)), false, 'the console stopped too')

  const second = startStack(env)
  t.teardown(() => { second.kill('SIGKILL') })
  const again = await waitForOutput(second, 'Press Ctrl-C to stop.', 180_000)
  t.equal(/Demo project (prj_\w+)/.exec(again)?.[1], projectId, 'second start reuses the data')
  t.equal(/console sign-in\s+(\S+ \/ \S+)/.exec(again)?.[1], /console sign-in\s+(\S+ \/ \S+)/.exec(out)?.[1], 'and the demo sign-in')
  t.equal(/widget key\s+(csk_pub_\w+)/.exec(again)?.[1], widgetKey, 'and the widget key, its page\'s origin unchanged')
  const latest = await fetch(`http://127.0.0.1:${env.CHAT_PORT}/latestConsumerChatId?consumer_id=starter`, { headers: { authorization: `Bearer ${chatKey}` } })
  t.type(((await latest.json()) as { chat_id: unknown }).chat_id, 'string', 'the chat of the first run is still there')
  second.kill('SIGTERM')
  t.equal(await exited(second, 30_000), 0)
})
