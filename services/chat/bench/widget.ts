// `pnpm bench widget`: the widget's weight and its speed as a shopper feels it. Prints the gzip and
// brotli sizes of the built loader and panel, then, in Chromium against a local stack (embedded
// PostgreSQL, a search service with the demo catalog and help pages, the chat service), the median
// time from the click on the launcher to the first streamed token of the reply over BENCH_RUNS runs,
// each in a fresh browser context (nothing cached, no conversation kept). The question is sent the
// moment the message field is ready, so the figure is the widget's and the service's, not typing.
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { createKey } from '@chatsearch/auth'
import { widgetDist } from '@chatsearch/chat-widget'
import { harness } from '../test/helpers.js'
import { searchStack, TOKEN } from '../test/support/search-stack.js'
import { shopPage } from '../test/support/shop-page.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const QUESTIONS = ['How long does shipping take?', 'Do orders to Alaska take longer?', 'do you have waterproof hiking boots under $150?', 'I need a tent for stargazing', 'How many days do I have to return an item?']
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)

/** Run in the page (this file is compiled without the DOM's types): click, wait for the field, send, wait for the first token. */
const IN_PAGE = `async (question) => {
      const until = (probe) => new Promise((resolve, reject) => {
        const started = performance.now()
        const tick = () => {
          const found = probe()
          if (found !== null && found !== undefined && found !== false) resolve(found)
          else if (performance.now() - started > 30_000) reject(new Error('timed out'))
          else setTimeout(tick, 1)
        }
        tick()
      })
      const clicked = performance.now()
      document.querySelector('chatsearch-launcher').shadowRoot.querySelector('button').click()
      const root = await until(() => document.querySelector('chatsearch-chat')?.shadowRoot)
      const field = await until(() => { const f = root.querySelector('textarea'); return f !== null && root.activeElement === f && f })
      const ready = performance.now()
      field.value = question
      root.querySelector('form').requestSubmit()
      await until(() => [...root.querySelectorAll('.m.assistant:last-child span:not(.who)')].some((s) => !s.classList.contains('dots') && (s.textContent ?? '') !== ''))
      return { ready: ready - clicked, firstToken: performance.now() - clicked }
  }`

const cleanups: Array<() => unknown> = []
const t = { teardown: (fn: () => unknown) => { cleanups.push(fn) } }
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2 }
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

try {
  const sizes: Record<string, { raw: number, gzip: number, br: number }> = {}
  for (const file of ['loader.js', 'panel.js']) {
    const body = await readFile(widgetDist + file)
    sizes[file] = { raw: body.length, gzip: gzipSync(body, { level: 9 }).length, br: brotliCompressSync(body).length }
  }

  log('starting PostgreSQL, the search service (demo catalog and help pages) and the chat service')
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop, {}, { knowledge: true })
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, serviceToken: TOKEN, logLevel: 'silent' })
  const chatUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  const attrs: Record<string, string> = { key: '', lang: 'en' }
  const origin = await shopPage(t, chatUrl, attrs)
  attrs.key = (await createKey(h.db, shop.projectId, 'widget', 'bench', [origin])).key
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  cleanups.push(() => browser.close())

  const runs: Array<{ ready: number, firstToken: number }> = []
  for (let i = -1; i < RUNS; i++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(origin)
    await page.locator('chatsearch-launcher button').waitFor()
    const timing = await page.evaluate(`(${IN_PAGE})(${JSON.stringify(QUESTIONS[(i + QUESTIONS.length) % QUESTIONS.length])})`) as { ready: number, firstToken: number }
    await context.close()
    // The first run warms the service's caches and models; it is not counted.
    if (i >= 0) runs.push(timing)
    log(`${i < 0 ? 'warm-up' : `run ${i + 1}/${RUNS}`}: panel ready ${timing.ready.toFixed(0)} ms, first token ${timing.firstToken.toFixed(0)} ms`)
  }

  const figures = {
    loader: sizes['loader.js'],
    panel: sizes['panel.js'],
    runs: RUNS,
    click_to_panel_ready_ms_median: Math.round(median(runs.map((r) => r.ready))),
    click_to_first_token_ms_median: Math.round(median(runs.map((r) => r.firstToken))),
    click_to_first_token_ms_max: Math.round(Math.max(...runs.map((r) => r.firstToken)))
  }
  process.stdout.write([
    `loader.js  ${kb(figures.loader!.raw)} raw, ${kb(figures.loader!.gzip)} gzip, ${kb(figures.loader!.br)} brotli (budget 10 KB gzip)`,
    `panel.js   ${kb(figures.panel!.raw)} raw, ${kb(figures.panel!.gzip)} gzip, ${kb(figures.panel!.br)} brotli (budget 60 KB gzip)`,
    `click on the launcher → panel ready: median ${figures.click_to_panel_ready_ms_median} ms`,
    `click on the launcher → first streamed token: median ${figures.click_to_first_token_ms_median} ms, max ${figures.click_to_first_token_ms_max} ms (${RUNS} runs, Chromium, local stack, grounded responder)`,
    JSON.stringify(figures)
  ].join('\n') + '\n')
} finally {
  for (const fn of cleanups.reverse()) await fn()
}
