import { Type } from 'typebox'
import { buildApp as buildChat, chatConfig, ChatEnvSchema } from '@chatsearch/chat'
import { buildApp as buildConsole, consoleConfig, ConsoleEnvSchema } from '@chatsearch/console'
import { buildApp as buildSearch, demoCatalogFile, demoKnowledge, inferSettings, ingestDocuments, ingestKnowledge, searchConfig, SearchEnvSchema } from '@chatsearch/search'
import { readFile } from 'node:fs/promises'
import { closeOnSignal, createPool, exitOnConfigError, limitHeapGrowth, loadConfig, resolveDatabase } from '@chatsearch/shell'
import { randomBase62 } from '@chatsearch/auth'
import { banner, ensureDemoProject, ensureDemoUser, saveDemoCredentials } from './demo.js'
import { demoWidgetKey, serveDemoShop } from './demo-shop.js'

/** The whole service in one process on embedded defaults: what `pnpm start` runs. */
const StartEnvSchema = Type.Object({
  ...ChatEnvSchema.properties,
  ...SearchEnvSchema.properties,
  ...ConsoleEnvSchema.properties,
  DEMO: Type.Boolean({ default: true }),
  /** The sample shop page with the widget (demo only), on an origin of its own. */
  DEMO_SHOP_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3003 })
})

// The chat asks the search service over HTTP (as in production), with a secret made for this run
// unless SERVICE_TOKEN is set.
const env = exitOnConfigError(() => {
  const read = loadConfig(StartEnvSchema, process.env)
  const withToken = { ...read, SERVICE_TOKEN: read.SERVICE_TOKEN ?? randomBase62(48) }
  // Each service's checks of variables that go together (MEILI_URL, LLM_MODEL…), before anything starts.
  searchConfig(withToken, '')
  chatConfig(withToken, '')
  return withToken
})
limitHeapGrowth(env.HEAP_GROWTH_PERCENT)
const log = (line: string) => process.stderr.write(line.endsWith('\n') ? line : line + '\n')
if (env.DATABASE_URL === undefined) log(`starting embedded PostgreSQL in ${env.DATA_DIR} on port ${env.PG_PORT}…`)
const database = await resolveDatabase(env)
const search = await buildSearch(searchConfig(env, database.url))
const searchUrl = await search.listen({ host: env.HOST, port: env.SEARCH_PORT })
const chat = await buildChat(chatConfig({ ...env, SEARCH_URL: env.SEARCH_URL ?? searchUrl }, database.url))

// Callers first: the console asks chat and search, and a reply still being written may ask the search service.
const apps = [chat, search]
let closeShop = async () => {}
closeOnSignal(apps, { graceMs: env.SHUTDOWN_GRACE_MS, after: async () => { await closeShop(); await database.stop() } })

const chatUrl = await chat.listen({ host: env.HOST, port: env.CHAT_PORT })
// The console reaches the services of this process, over HTTP as in production.
const consoleApp = await buildConsole(consoleConfig({ ...env, CHAT_URL: env.CHAT_URL ?? chatUrl, SEARCH_URL: env.SEARCH_URL ?? searchUrl }, database.url))
// closeOnSignal reads the list when a signal comes: the console, built last, is closed first.
apps.unshift(consoleApp)
const consoleUrl = await consoleApp.listen({ host: env.HOST, port: env.CONSOLE_PORT })

if (env.DEMO) {
  const pool = createPool(database.url, 1)
  try {
    const { demo: project } = await ensureDemoProject(pool, env.DATA_DIR)
    const demo = await ensureDemoUser(pool, env.DATA_DIR, project)
    const index = await search.engine.index(demo.projectId)
    if (await index.count() === 0) {
      log('importing the demo catalog…')
      const items = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as Array<Record<string, unknown> & { id: string }>
      // Inferred as any catalog's first batch, with price and rating sortable too (nothing is until a
      // shop says so): the README's sort examples answer on the demo.
      await index.updateSettings({ ...inferSettings(items), sortableAttributes: ['price', 'rating'] })
      const result = await ingestDocuments(index, items, search.catalogEmbedder)
      log(`demo catalog: ${result.total} items`)
    }
    const knowledge = await search.engine.knowledge(demo.projectId)
    if (await knowledge.count() === 0) {
      const documents = await demoKnowledge()
      const result = await ingestKnowledge(knowledge, documents, search.embedder)
      const faqs = documents.filter((d) => typeof d === 'object' && d !== null && 'question' in d).length
      log(`demo knowledge: ${result.total - faqs} pages and ${faqs} FAQs`)
    }
    // The page's origin must be on the widget key, so the key is made once the page's port is known.
    const pageHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST
    let key = demo.widgetKey ?? ''
    const shop = await serveDemoShop(env.HOST, env.DEMO_SHOP_PORT, `${chatUrl}/widget/v1/loader.js`, () => key)
    closeShop = shop.close
    const port = new URL(shop.url).port
    const origins = [...new Set([`http://${pageHost}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`])]
    const widget = await demoWidgetKey(pool, demo.projectId, origins, demo)
    key = widget.widgetKey
    const withWidget = { ...demo, ...widget }
    if (widget.widgetKey !== demo.widgetKey) await saveDemoCredentials(env.DATA_DIR, withWidget)
    process.stdout.write(banner(withWidget, chatUrl, searchUrl, consoleUrl, `http://${pageHost}:${port}/`))
  } finally {
    await pool.end()
  }
} else {
  process.stdout.write(`console ${consoleUrl}, chat ${chatUrl}, search ${searchUrl}\n`)
}
