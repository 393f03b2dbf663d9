import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { knowledgeCrawl } from '../src/tasks/knowledge-crawl.js'
import { searchHarness, send, taskIn } from './helpers.js'
import { page, redirect, startSite, type Route } from './crawl-site.js'

const FAST = { tasks: { heartbeatMs: 200, pollMs: 500, shutdownGraceMs: 300 } }

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/shipping">Shipping</a> <a href="/returns">Returns</a></nav><main>${body}</main><footer>© Shop</footer></body></html>`

const shipping = html('Shipping', '<h1>Shipping</h1><h2 id="times">Delivery times</h2><p>Standard delivery takes three to five working days. Express delivery arrives the next working day.</p><h2 id="costs">Costs</h2><p>Orders over fifty euros ship free of charge.</p>')
const returns = html('Returns', '<h1>Returns</h1><h2 id="window">Return window</h2><p>You can return any item within thirty days of delivery for a full refund.</p>')
const oldPage = html('Old offer', '<h1>Winter sale</h1><p>The winter sale gives twenty percent off every jacket.</p>')

t.test('a crawl task indexes the site\'s pages, found by knowledge search with their section and anchor; a re-crawl removes the pages gone', async (t) => {
  const h = await searchHarness(t, false, { ...FAST, crawlAllowPrivateNetworks: true })
  const shop = await h.tenant()
  const other = await h.tenant()
  const routes: Record<string, Route> = {
    '/': page(html('Help centre', '<h1>Help centre</h1><p>Answers about delivery and refunds.</p><a href="/old">Winter sale</a>')),
    '/shipping': page(shipping),
    '/returns': redirect('/help/returns', 301),
    '/help/returns': page(returns),
    '/old': page(oldPage),
    '/robots.txt': page('User-agent: *\nDisallow: /private\n')
  }
  const site = await startSite(t, routes)

  const crawl = async (body: Record<string, unknown>) => {
    const res = await send(h.app, shop.key, 'POST', '/knowledge/crawl', body)
    t.equal(res.statusCode, 202, res.body)
    return await taskIn(h.app, shop.key, res.json().task_id, ['succeeded', 'failed'], 30_000)
  }
  const first = await crawl({ url: `${site.origin}/` })
  t.equal(first.status, 'succeeded', JSON.stringify(first.error))
  t.equal(first.type, 'crawl')
  t.match(first.details, { pages: 4, indexed: 4, removed: 0, truncated: false, out_of_time: false })
  t.ok(first.progress.done > 0 && first.progress.done === first.progress.total, 'progress complete')
  t.ok(site.requests.every((r) => r.userAgent?.startsWith('ChatSearchBot/') === true), 'the crawler names itself')

  const search = async (query: string, key = shop.key) => {
    const res = await send(h.app, key, 'POST', '/knowledge/search', { query })
    t.equal(res.statusCode, 200, res.body)
    return res.json().hits as Array<{ kind: string, title: string, section: string, url: string, text: string }>
  }
  // Readability drops the h1 that repeats the page's title: the title is the hit's `title`.
  const [delivery] = await search('how long does delivery take')
  t.match(delivery, { kind: 'web', title: 'Shipping', section: 'Delivery times', url: `${site.origin}/shipping#times` })
  t.match(delivery?.text, /three to five working days/)
  const [refund] = await search('return refund days')
  t.match(refund, { title: 'Returns', url: `${site.origin}/help/returns#window` }, 'indexed under the URL the redirect ended at')
  t.notMatch(JSON.stringify(await search('Home Shop')), /©/, 'navigation and footer are not indexed')
  t.same(await search('delivery', other.key), [], 'another project sees nothing')

  const again = await crawl({ url: `${site.origin}/` })
  t.match(again.details, { pages: 4, indexed: 0, unchanged: 4, removed: 0 }, 'an unchanged site is not indexed again')

  routes['/'] = page(html('Help centre', '<h1>Help centre</h1><p>Answers about delivery and refunds.</p>'))
  delete routes['/old']
  const third = await crawl({ url: `${site.origin}/` })
  t.match(third.details, { pages: 3, removed: 1 }, 'the page no longer linked is removed')
  t.same(await search('winter sale jacket'), [])
  const listed = await send(h.app, shop.key, 'GET', '/knowledge/documents?kind=web')
  t.equal(listed.json().total, 3)

  // A crawl out of time (CRAWL_MAX_MINUTES) keeps what it found and removes nothing it did not reach.
  await h.app.tasks.register('crawl', knowledgeCrawl(h.app, { allowPrivateNetworks: true, maxMinutes: 0.02 }))
  const home = routes['/']!
  routes['/'] = async (req, res, s) => { await sleep(1500); await home(req, res, s) }
  const late = await crawl({ url: `${site.origin}/` })
  t.equal(late.status, 'succeeded')
  t.match(late.details, { pages: 1, removed: 0, truncated: false, out_of_time: true }, 'the start page, then no time for the two it links')
  t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents?kind=web')).json().total, 3, 'the pages it did not reach are kept')
  t.equal((await search('how long does delivery take'))[0]?.title, 'Shipping')
})

t.test('a crawl that cannot be done fails with a reason; a bad body is a 400', async (t) => {
  const h = await searchHarness(t, false, FAST)
  const shop = await h.tenant()
  const site = await startSite(t, { '/': page(html('Home', '<h1>Home</h1><p>Welcome to the shop.</p>')) })

  const refused = await send(h.app, shop.key, 'POST', '/knowledge/crawl', { url: `${site.origin}/` })
  t.equal(refused.statusCode, 202)
  const failed = await taskIn(h.app, shop.key, refused.json().task_id, ['succeeded', 'failed'], 30_000)
  t.equal(failed.status, 'failed', 'CRAWL_ALLOW_PRIVATE_NETWORKS is off: 127.0.0.1 is refused')
  t.match(failed.error, { code: 'invalid_request', message: /internal|private|loopback/i })
  t.same(site.requests, [], 'the site received nothing')

  const missing = await send(h.app, shop.key, 'POST', '/knowledge/crawl', {})
  t.equal(missing.json().code, 'missing_parameters')
  // The last three passed the schema's pattern and were a task that failed in `new URL`.
  for (const body of [{ url: 'ftp://example.com/' }, { url: 'http://example.com/', max_pages: 0 }, { url: 'http://example.com/', max_pages: 5001 }, { url: 'http://example.com/', extra: 1 },
    { url: 'https://' }, { url: 'http://a.example:99999/' }, { url: 'http://%00/' }]) {
    const res = await send(h.app, shop.key, 'POST', '/knowledge/crawl', body)
    t.equal(res.statusCode, 400, JSON.stringify(body))
    t.equal(res.json().code, 'invalid_request')
  }
  t.equal((await send(h.app, shop.key, 'GET', '/tasks')).json().total, 1, 'no refused crawl queued a task')
})
