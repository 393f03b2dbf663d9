// `pnpm bench console`: how heavy and how fast the console's pages are on the demo data, in Debian's
// chromium. The demo catalog (1,200 items) and the demo knowledge in a project, 40 conversations (a
// quarter handed off) and 60 searches in its analytics; then each page is opened signed in, five
// times with an empty cache and five times with the assets cached, and timed from navigation to its
// data on screen ("interactive": the element a person would use first is visible), with the bytes the
// browser received. The sign-in page, which asks the API nothing, is the baseline of the same run.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createKey, createProject } from '@chatsearch/auth'
import { demoCatalogFile, demoKnowledge, ingestDocuments, ingestKnowledge } from '@chatsearch/search'
import { harness, PASSWORD } from '../test/helpers.js'
import { services } from '../test/support/stack.js'
import { addMember } from '../src/store/memberships.js'
import { defaultWebRoot } from '../src/web.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`)
if (!existsSync(join(defaultWebRoot, 'index.html'))) throw new Error('the web app is not built: pnpm install builds it')

const cleanups: Array<() => unknown> = []
const t = { teardown: (fn: () => unknown) => { cleanups.push(fn) } }
const log = (line: string) => process.stderr.write(`[bench console] ${line}\n`)

try {
  const h = await harness(t)
  const stack = await services(t, h)
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl })
  const consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 })

  log('loading the demo catalog and knowledge (keyword search: no embeddings)…')
  const project = await createProject(h.db, 'Demo shop')
  await h.user('bench')
  await addMember(h.db, project.id, 'bench', 'owner')
  const items = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as unknown[]
  await ingestDocuments(await stack.search.engine.index(project.id), items, stack.search.catalogEmbedder)
  await ingestKnowledge(await stack.search.engine.knowledge(project.id), await demoKnowledge(), stack.search.embedder)
  const chatKey = (await createKey(h.db, project.id, 'chat', 'bench')).key
  const searchKey = (await createKey(h.db, project.id, 'search', 'bench')).key
  const post = async (url: string, key: string, body: unknown) => await (await fetch(url, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body)
  })).json() as { chat_id?: string }
  const messages = ['do you have waterproof hiking boots?', 'How long does shipping take?', 'I want to cancel my order', 'how much is the second one?']
  for (let i = 0; i < 40; i++) await post(`${stack.chatUrl}/newUserMessage`, chatKey, { user_message: messages[i % messages.length], consumer_id: `shopper-${i}` })
  const terms = ['tent', 'hiking boots', 'espresso', 'headphones', 'sleeping bag', 'zzzz']
  for (let i = 0; i < 60; i++) await post(`${stack.searchUrl}/search`, searchKey, { search_term: terms[i % terms.length] })
  const chatId = (await post(`${stack.chatUrl}/newUserMessage`, chatKey, { user_message: 'Is the first one waterproof?', consumer_id: 'shopper-0' })).chat_id!

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  cleanups.push(() => browser.close())
  const base = `${consoleUrl}/projects/${project.id}`
  /** Each page and what is on screen once its data is. */
  const pages: Array<{ name: string, url: string, ready: string }> = [
    { name: 'sign in (baseline)', url: `${consoleUrl}/signin`, ready: 'button:has-text("Sign in")' },
    { name: 'projects', url: `${consoleUrl}/`, ready: 'a:has-text("Demo shop")' },
    { name: 'credentials', url: base, ready: 'td:has-text("bench")' },
    { name: 'catalog', url: `${base}/catalog`, ready: '.hits li, table td' },
    { name: 'knowledge', url: `${base}/knowledge`, ready: 'text=Shipping' },
    { name: 'conversations', url: `${base}/chats`, ready: 'text=Handed off' },
    { name: 'transcript', url: `${base}/chats/${chatId}`, ready: 'text=Is the first one waterproof?' },
    { name: 'analytics', url: `${base}/analytics`, ready: 'canvas' },
    { name: 'playground', url: `${base}/playground`, ready: 'button:has-text("Send")' }
  ]

  // One signed-in state, reused by every fresh context (cookies only: the cache starts empty).
  const signer = await browser.newContext()
  const signIn = await signer.newPage()
  await signIn.goto(`${consoleUrl}/signin`)
  await signIn.getByLabel('Username').fill('bench')
  await signIn.getByLabel('Password').fill(PASSWORD)
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await signIn.getByRole('heading', { name: 'Projects', level: 1 }).waitFor()
  const state = await signer.storageState()
  await signer.close()

  const median = (values: number[]) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]! }
  const measure = async (context: Awaited<ReturnType<typeof browser.newContext>>, url: string, ready: string) => {
    const page = await context.newPage()
    const started = performance.now()
    await page.goto(url)
    await page.locator(ready).first().waitFor({ timeout: 30_000 })
    const ms = performance.now() - started
    // Bytes received (headers and bodies) for the page and everything it loaded, as the browser counts them.
    const bytes = await page.evaluate('performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource")).reduce((n, e) => n + e.transferSize, 0)') as number
    await page.close()
    return { ms, bytes }
  }

  log(`${RUNS} cold and ${RUNS} warm loads of ${pages.length} pages…`)
  const rows: string[] = []
  for (const p of pages) {
    const cold: Array<{ ms: number, bytes: number }> = []
    const warm: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext(p.name.startsWith('sign in') ? {} : { storageState: state })
      cold.push(await measure(context, p.url, p.ready))
      warm.push((await measure(context, p.url, p.ready)).ms)
      await context.close()
    }
    rows.push(`${p.name.padEnd(20)} ${median(cold.map((c) => c.ms)).toFixed(0).padStart(8)} ${median(warm).toFixed(0).padStart(8)} ${(median(cold.map((c) => c.bytes)) / 1024).toFixed(1).padStart(10)}`)
  }
  process.stdout.write(`Console pages on the demo data (chromium, median of ${RUNS}; interactive = the page's data on screen)\n`)
  process.stdout.write(`${'page'.padEnd(20)} ${'cold ms'.padStart(8)} ${'warm ms'.padStart(8)} ${'cold KiB'.padStart(10)}\n${rows.join('\n')}\n`)
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup()
}
