// The playground's hybrid search in a real browser (Debian's chromium driven by playwright-core),
// against the real console and search services (the static embedder: no model runs per item): the
// values found in a facet's box are counted over the items the hybrid search shown matched, as its
// facets are, not over its keyword matches alone.
import t from 'tap'
import { join } from 'node:path'
import { createKey } from '@chatsearch/auth'
import { harness, PASSWORD } from './helpers.js'
import { services } from './support/stack.js'
import { browserPage, browserSkip, DESKTOP, signInToProject } from './support/browser.js'

/** 30 items of 25 brands (more than the 20 values a facet shows, so it gets a box to find the others); 5 lanterns, the rest by meaning only. */
const ITEMS = Array.from({ length: 30 }, (_, i) => ({
  id: `item-${i}`,
  title: i < 5 ? `Camping lantern ${i}` : `Outdoor gear ${i}`,
  brand: i % 6 === 0 ? 'Zephyr Gear' : `Brand ${String(i).padStart(2, '0')}`,
  price: 10 + i
}))

t.test('the playground counts a hybrid search\'s facet values as its facets', { skip: browserSkip, timeout: 180_000 }, async (t) => {
  const h = await harness(t)
  const stack = await services(t, h, { embeddings: true, embedder: 'static' })
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl })
  const consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  await h.user('alice')
  const projectId = await h.project('Lantern shop', { alice: 'owner' })
  const token = (await createKey(h.db, projectId, 'search', 'alice')).key
  const api = async (method: 'POST' | 'PUT', path: string, body: unknown) => await fetch(`${stack.searchUrl}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body)
  })
  t.equal((await api('PUT', '/settings', { searchableAttributes: ['title'], filterableAttributes: ['brand'], facetableAttributes: ['brand'] })).status, 200)
  t.equal((await api('POST', '/documents', ITEMS)).status, 200)
  // What the search API counts, keyword and hybrid: the page must show the hybrid one.
  const zephyr = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/facet-search', { facet_name: 'brand', facet_query: 'zeph', search_term: 'lantern', ...body })
    return ((await res.json()) as { facet_hits: Array<{ value: string, count: number }> }).facet_hits
  }
  const keyword = await zephyr({})
  const hybrid = await zephyr({ search_type: 'hybrid' })
  t.same(keyword, [{ value: 'Zephyr Gear', count: 1 }], 'the keyword search matches one Zephyr Gear lantern')
  t.same(hybrid, [{ value: 'Zephyr Gear', count: 5 }], 'the hybrid search counts the items closest in meaning too: all five')

  const { page, shots, pageErrors } = await browserPage(t)
  page.on('console', (message) => { if (message.type() === 'error' && !/status of 401/.test(message.text())) pageErrors.push(message.text()) })
  page.setDefaultTimeout(20_000)
  try {
    await signInToProject(page, consoleUrl, 'alice', PASSWORD, 'Lantern shop')
    await page.goto(`${page.url()}/playground`)

    const searchCard = page.locator('section', { has: page.getByRole('heading', { name: 'Search', level: 2 }) })
    await searchCard.getByLabel('Search term').fill('lantern')
    await searchCard.getByLabel('Search type').selectOption('hybrid')
    const answered = page.waitForResponse((r) => r.url().endsWith('/search') && r.request().method() === 'POST')
    await searchCard.getByRole('button', { name: 'Search', exact: true }).click()
    t.equal((await answered).status(), 200, 'the hybrid search is answered')
    await searchCard.getByRole('status').filter({ hasText: /items? found in/ }).waitFor()

    await searchCard.getByText('Narrow down').click()
    const brands = searchCard.getByRole('group', { name: 'brand' })
    const valuesFound = page.waitForResponse((r) => r.url().endsWith('/facet-search'))
    await brands.getByLabel('Find values of brand').fill('zeph')
    const facetSearch = await valuesFound
    t.same({ status: facetSearch.status(), body: facetSearch.request().postDataJSON() }, {
      status: 200, body: { facet_name: 'brand', facet_query: 'zeph', search_term: 'lantern', filters: null, search_type: 'hybrid' }
    }, 'the values are searched over the hybrid search shown')
    await brands.getByLabel('Zephyr Gear (5)').waitFor()
    t.pass('the count shown is the hybrid search\'s')
    await page.screenshot({ path: join(shots, `playground-hybrid-facets-${DESKTOP}.png`), fullPage: true })
    t.same(pageErrors, [], 'no error in the page')
  } catch (err) {
    t.fail(`${(err as Error).message}; page errors: ${pageErrors.join(' | ')}`)
  }
})
