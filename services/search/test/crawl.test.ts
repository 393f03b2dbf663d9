import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { crawl, type FetchedPage } from '../src/knowledge/crawl/crawl.js'
import { DEFAULT_USER_AGENT, type CrawlOptions } from '../src/knowledge/crawl/options.js'
import { chunkPage } from '../src/knowledge/chunk.js'
import { parseHtml } from '../src/knowledge/parse/html.js'
import { PageThread, parkedPageThreads } from '../src/knowledge/crawl/page-thread.js'
import { freePort, page, paths, redirect, startSite, type Route } from './crawl-site.js'

/** Local test servers: private networks allowed, small limits so the bad pages fail fast. */
const local: CrawlOptions = { allowPrivateNetworks: true, perPageTimeoutMs: 800, maxPageBytes: 64 * 1024 }

async function crawlAll (start: string, options: CrawlOptions = local) {
  const pages: FetchedPage[] = []
  const report = await crawl(start, options, async (p) => { pages.push(p) })
  const reasons = Object.fromEntries(report.skipped.map((s) => [new URL(s.url).pathname + new URL(s.url).search, s.reason]))
  return { pages, report, reasons, urls: pages.map((p) => new URL(p.url).pathname + new URL(p.url).search).sort() }
}

/** Starts a page thread and leaves it, loaded, for the next crawl. */
async function loadPageThread () {
  const thread = new PageThread('TestBot')
  await thread.read('<title>Ready</title>', 'http://shop.test/', undefined)
  await thread.close()
}

t.test('a small site: robots.txt, its sitemaps, links, redirects and every kind of bad page', async (t) => {
  const streams: string[] = []
  const site = await startSite(t, {
    '/robots.txt': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(
        `User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n\nSitemap: http://${req.headers.host}/sitemap-index.xml\n`)
    },
    '/sitemap-index.xml': (req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://${req.headers.host}/pages.xml.gz</loc></sitemap></sitemapindex>`)
    },
    '/pages.xml.gz': (req, res) => {
      const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/from-sitemap', '/private/listed', '/query?a=1&amp;b=2']
        .map((p) => `<url><loc>http://${req.headers.host}${p}</loc></url>`).join('')}</urlset>`
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(xml))
    },
    '/': page(`<html><head><title>Home</title></head><body>
      <a href="/about#team">About</a> <a href="about">About again</a> <a href="/#top">Top</a>
      <a href="/old">Old</a> <a href="/loop-a">Loop</a> <a href="/missing">Missing</a>
      <a href="/manual.pdf">Manual</a> <a href="/huge">Huge</a> <a href="/slow">Slow</a>
      <a href="/print">Print</a> <a href="/alias">Alias</a> <a href="/hidden">Hidden</a> <a href="/latin">Latin</a>
      <a href="https://elsewhere.example/page">Elsewhere</a> <a href="http://localhost:${1}/x">Other port</a>
      <a href="/private/secret">Private</a> <a href="mailto:shop@example.com">Mail</a> <a href="/sponsored" rel="nofollow">Ad</a>
      </body></html>`),
    '/about': page('<title>About</title><a href="/">Home</a><a href="/about?tab=1">Tab</a>'),
    '/about?tab=1': page('<title>About, tab</title>'),
    '/from-sitemap': page('<title>Listed</title>'),
    '/query?a=1&b=2': page('<title>Query</title>'),
    '/old': redirect('/older', 301),
    '/older': redirect('/landing', 308),
    '/landing': page('<title>Landing</title>'),
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/manual.pdf': (_req, res) => { res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 not really') },
    '/huge': (_req, res) => {
      // Streams without a Content-Length, 16 KiB every 5 ms, until the client hangs up (at most 20 MiB).
      res.writeHead(200, { 'content-type': 'text/html' })
      const chunk = `<p>${'x'.repeat(16 * 1024 - 7)}</p>`
      let sent = 0
      const timer = setInterval(() => {
        if (res.destroyed || sent > 20 * 1024 * 1024) {
          clearInterval(timer)
          streams.push(`huge stopped after ${sent} bytes`)
          res.destroy()
          return
        }
        res.write(chunk)
        sent += chunk.length
      }, 5)
    },
    '/slow': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.write('<title>Slow</title><p>first words, and the rest never comes')
    },
    '/print': page('<link rel="canonical" href="/about"><title>About (print)</title>'),
    '/alias': page('<link rel="canonical" href="/canonical-home-of-alias"><title>Alias</title><a href="/canonical-home-of-alias">self</a>'),
    '/hidden': page('<meta name="robots" content="noindex"><title>Hidden</title><a href="/behind-hidden">More</a>'),
    '/behind-hidden': page('<title>Behind</title><meta name="robots" content="nofollow"><a href="/never-followed">x</a>'),
    '/latin': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<title>Caf\xe9</title><p>cr\xe8me br\xfbl\xe9e</p>', 'latin1'))
    },
    '/sponsored': page('<title>Ad</title>'),
    '/never-followed': page('<title>Never</title>'),
    '/canonical-home-of-alias': page('<title>Canonical</title>')
  })

  // The crawl takes a loaded page thread: its start from the TypeScript sources (2 s alone, much more
  // on a loaded machine) is not what is measured.
  await loadPageThread()
  const started = Date.now()
  const { pages, report, reasons, urls } = await crawlAll(`${site.origin}/`)
  // About 4 s alone: the bounds of the slow pages.
  t.ok(Date.now() - started < 15_000, `the slow and huge pages cost their bounds, not more (${Date.now() - started} ms)`)

  t.same(urls, ['/', '/about', '/about?tab=1', '/behind-hidden', '/canonical-home-of-alias', '/from-sitemap', '/landing', '/latin', '/query?a=1&b=2'],
    'delivered: the start, sitemap pages, linked pages, a redirect target, a canonical, a page behind a noindex one')
  t.equal(report.pages, pages.length)
  t.equal(new Set(pages.map((p) => p.url)).size, pages.length, 'no URL delivered twice')

  t.equal(paths(site)[0], '/robots.txt', 'robots.txt is read first')
  t.notOk(paths(site).some((p) => p.startsWith('/private')), 'no disallowed path was requested')
  t.notOk(paths(site).includes('/sponsored'), 'rel=nofollow links are not followed')
  t.notOk(paths(site).includes('/never-followed'), 'a nofollow page\'s links are not followed')
  t.equal(paths(site).filter((p) => p === '/about').length, 1, 'a page is fetched once, whatever fragment or relative form its links use')
  t.ok(site.requests.every((r) => r.userAgent === DEFAULT_USER_AGENT), 'every request names the crawler')
  t.match(DEFAULT_USER_AGENT, /^ChatSearchBot\/\d+\.\d+\.\d+ \(/)

  const landing = pages.find((p) => p.url === `${site.origin}/landing`)!
  t.equal(landing.finalUrl, `${site.origin}/landing`)
  const alias = pages.find((p) => p.url === `${site.origin}/canonical-home-of-alias`)!
  t.equal(alias.finalUrl, `${site.origin}/alias`, 'a page is delivered under its canonical URL')
  t.match(alias.html, /<title>Alias<\/title>/)
  t.notOk(paths(site).includes('/canonical-home-of-alias'), 'a canonical URL already delivered is not fetched again')
  t.match(pages.find((p) => p.url.endsWith('/latin'))!.html, /Café.*crème brûlée/s, 'the charset of Content-Type is honoured')
  t.equal(pages.find((p) => p.url.endsWith('/latin'))!.contentType, 'text/html')

  t.match(reasons, {
    '/private/listed': 'disallowed by robots.txt',
    '/private/secret': 'disallowed by robots.txt',
    '/page': `outside ${site.origin}`,
    '/x': `outside ${site.origin}`,
    '/loop-a': /^redirect loop: .*\/loop-a → .*\/loop-b → .*\/loop-a$/,
    '/missing': 'answered 404',
    '/manual.pdf': 'not HTML (application/pdf)',
    '/huge': 'larger than 64 KiB',
    '/slow': 'no complete answer within 0.8 s',
    '/print': `duplicate of ${site.origin}/about (its canonical URL), already crawled`,
    '/hidden': 'marked noindex'
  })
  t.notOk(reasons['/never-followed'], 'links of a nofollow page are not even reported')
  await sleep(50)
  t.match(streams, [/^huge stopped after \d+ bytes$/], 'the huge page\'s download was cut, not read to its end')
  t.ok(Number(/\d+/.exec(streams[0]!)![0]) < 4 * 1024 * 1024)
})

t.test('at most two requests at a time reach the origin, even from two crawls of it', async (t) => {
  const routes: Record<string, Route> = {
    '/': page(Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''))
  }
  for (let i = 0; i < 12; i++) {
    routes[`/p${i}`] = async (_req, res) => {
      await sleep(60)
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${i}</title>`)
    }
  }
  const site = await startSite(t, routes)
  const [one, two] = await Promise.all([crawlAll(`${site.origin}/`), crawlAll(`${site.origin}/`)])
  t.equal(one.pages.length, 13)
  t.equal(two.pages.length, 13)
  t.equal(site.maxConcurrent, 2, 'two at a time, never more')
})

t.test('maxPages bounds the fetches; progress counts up to the URLs it will fetch', async (t) => {
  const routes: Record<string, Route> = { '/': page(Array.from({ length: 20 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('')) }
  for (let i = 0; i < 20; i++) routes[`/p${i}`] = page(`<title>${i}</title>`)
  const site = await startSite(t, routes)
  const progress: Array<{ done: number, total: number }> = []
  const { pages, report } = await crawlAll(`${site.origin}/`, { ...local, maxPages: 5, onProgress: (p) => progress.push(p) })
  t.equal(pages.length, 5)
  t.equal(report.truncated, true)
  t.equal(paths(site).filter((p) => p.startsWith('/p')).length, 4, 'the start page and four more')
  t.same(progress.at(-1), { done: 5, total: 5 })
  t.ok(progress.every((p, i) => p.done <= p.total && (i === 0 || p.done >= progress[i - 1]!.done)))
})

t.test('a page and another naming it canonical, fetched at once, deliver it once whichever ends first', async (t) => {
  const slowly = (ms: number, html: string): Route => async (req, res, site) => { await sleep(ms); await page(html)(req, res, site) }
  const site = await startSite(t, {
    '/': page('<a href="/alias">alias</a><a href="/target">target</a>'),
    '/alias': page('<link rel="canonical" href="/target"><title>Alias</title>'),
    '/target': slowly(300, '<title>Target</title>')
  })
  const { pages, reasons } = await crawlAll(`${site.origin}/`)
  t.same(pages.map((p) => new URL(p.url).pathname).sort(), ['/', '/target'], 'the target once, delivered from the alias that ended first')
  t.same(reasons, { '/target': `duplicate of ${site.origin}/target (its canonical URL), already crawled` })
})

t.test('a crawl out of time fetches nothing more and says so; what it fetched is delivered', async (t) => {
  const slow = (html: string): Route => async (req, res, site) => { await sleep(150); await page(html)(req, res, site) }
  const routes: Record<string, Route> = { '/': slow(Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('')) }
  for (let i = 0; i < 30; i++) routes[`/p${i}`] = slow(`<title>${i}</title><p>Page ${i} of a slow site.</p>`)
  const site = await startSite(t, routes)
  await loadPageThread() // its start is not the site's time
  // The whole site takes at least 16 × 150 ms, two pages at a time.
  const { pages, report } = await crawlAll(`${site.origin}/`, { ...local, maxDurationMs: 1000 })
  t.equal(report.outOfTime, true)
  t.equal(report.truncated, false, 'not cut by maxPages')
  t.ok(pages.length >= 1 && pages.length < 31, `${pages.length} of 31 pages delivered within the time`)
  t.equal(paths(site).filter((p) => p.startsWith('/p')).length, pages.length - 1, 'nothing fetched that was not delivered')

  const whole = await crawlAll(`${site.origin}/`, { ...local, maxDurationMs: 60_000 })
  t.equal(whole.pages.length, 31)
  t.equal(whole.report.outOfTime, false)
})

t.test('a page whose Content-Length is over the limit is not read; one with no headers in time is given up', async (t) => {
  const site = await startSite(t, {
    '/': page('<a href="/big">big</a><a href="/silent">silent</a>'),
    '/big': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(1024 * 1024) }).end('x'.repeat(1024 * 1024)) },
    '/silent': () => { /* never answers */ }
  })
  const { reasons, pages } = await crawlAll(`${site.origin}/`, { ...local, maxPageBytes: 1000, perPageTimeoutMs: 500 })
  t.equal(pages.length, 1)
  t.same(reasons, { '/big': 'larger than 1000 bytes (Content-Length 1048576)', '/silent': 'no complete answer within 0.5 s' })
})

t.test('a page comes with its main content, read and chunked on the page thread from the parse its links came from; HTML nested too deep is delivered unread', async (t) => {
  const returns = '<html><head><title>Returns</title><link rel="canonical" href="/returns"></head><body><nav><a href="/">Home</a></nav>' +
    '<main><h2 id="window">Return window</h2><p>Any item can be returned within thirty days.</p></main><footer>© Shop</footer></body></html>'
  const site = await startSite(t, {
    '/': page('<title>Home</title><a href="/returns?ref=home">Returns</a> <a href="/deep">Deep</a>'),
    '/returns?ref=home': page(returns),
    '/deep': page('<title>Deep</title>' + '<div>'.repeat(200) + '<a href="/behind-deep">x</a>' + '</div>'.repeat(200)),
    '/behind-deep': page('<title>Behind</title>')
  })
  const contents = new Map<string, Awaited<ReturnType<FetchedPage['content']>>>()
  const pages: FetchedPage[] = []
  await crawl(`${site.origin}/`, local, async (p) => {
    pages.push(p)
    if (new URL(p.url).pathname === '/') return
    contents.set(new URL(p.url).pathname, await p.content())
    t.equal(await p.content(), contents.get(new URL(p.url).pathname), 'read once')
  })
  t.same(pages.map((p) => new URL(p.url).pathname).sort(), ['/', '/deep', '/returns'])
  const read = contents.get('/returns')
  t.equal(pages.find((p) => p.url === `${site.origin}/returns`)!.finalUrl, `${site.origin}/returns?ref=home`)
  t.same(read, chunkPage(parseHtml(returns, 'Returns', `${site.origin}/returns`)), 'what parsing and chunking the page on its own gives')
  t.match(read, [{ section: 'Return window', text: 'Any item can be returned within thirty days.', url: `${site.origin}/returns#window` }], 'no navigation or footer, under its canonical URL')
  t.equal(await pages.find((p) => p.url === `${site.origin}/`)!.content(), undefined, 'not read during onPage: the parse was let go')
  t.equal(contents.get('/deep'), undefined, 'too deep to read: parsing it when stored says why')
  t.notOk(paths(site).includes('/behind-deep'), 'nor are its links followed')
})

t.test('a page that takes the page thread too long is skipped with the reason, and the crawl goes on on a new thread', async (t) => {
  // 400 blocks nested 120 deep: parsed in a few hundred ms, but Readability takes seconds over them.
  const slow = '<html><head><title>Slow</title></head><body><main><a href="/after">after</a>' + ('<div>'.repeat(120) + 'text' + '</div>'.repeat(120)).repeat(400) + '</main></body></html>'
  const site = await startSite(t, {
    '/': page('<title>Home</title><a href="/slow">Slow</a>'),
    '/slow': page(slow),
    '/after': page('<title>After</title><main><p>Still crawled, on a new thread.</p></main>'),
    // Its parse alone (200,000 links) takes seconds: its links are never read.
    '/moved': redirect('/links'),
    '/links': page('<title>Links</title><main>' + '<a href="/never">l</a> '.repeat(200_000) + '</main>'),
    '/never': page('<title>Never</title>')
  })
  const options = { ...local, maxPageBytes: 8 * 1024 * 1024, parseTimeoutMs: 1500 }
  const delivered = new Map<string, Awaited<ReturnType<FetchedPage['content']>>>()
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const report = await crawl(`${site.origin}/`, options, async (p) => { delivered.set(new URL(p.url).pathname, await p.content()) })
  t.same([...delivered.keys()].sort(), ['/', '/after', '/slow'], 'its links were read in time')
  t.same(delivered.get('/slow'), { skip: 'took longer than 1.5 s to read' }, 'a slow content read: the onPage caller records it')
  t.match(delivered.get('/after'), [{ text: 'Still crawled, on a new thread.' }])
  t.same(report.skipped, [])

  const moved = await crawl(`${site.origin}/moved`, options, async () => { t.fail('nothing to deliver') })
  loop.disable()
  t.same(moved.skipped, [{ url: `${site.origin}/links`, reason: 'took longer than 1.5 s to read' }],
    'a page whose parse is too slow is not delivered: skipped under the URL it was fetched from, after redirects')
  t.notOk(paths(site).includes('/never'), 'nor are its links followed')
  t.ok(loop.max < 1e9, `the event loop was never held for a second (longest ${Math.round(loop.max / 1e6)} ms)`)
})

t.test('a sitemap is parsed on the page thread, within its time: a huge one cannot hold the event loop', async (t) => {
  // 20 MB of <url> entries, every one on another site (so none would be crawled): its parse alone takes seconds.
  const entries = '<url><loc>https://elsewhere.example/p/0123456789abcdef0123456789abcdef</loc></url>'.repeat(250_000)
  const huge = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`
  const site = await startSite(t, {
    '/robots.txt': (req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: http://${req.headers.host}/huge.xml\n`) },
    '/huge.xml': (_req, res) => { res.writeHead(200, { 'content-type': 'application/xml' }).end(huge) },
    '/': page('<title>Home</title><main><p>Crawled all the same.</p></main>')
  })
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  // 20 MB take longer than the 0.8 s a page gets here on a busy machine: the download is given 30 s,
  // so that what stops the sitemap is its parse.
  const { urls, reasons } = await crawlAll(`${site.origin}/`, { ...local, perPageTimeoutMs: 30_000, parseTimeoutMs: 300 })
  loop.disable()
  t.same(urls, ['/'], 'the site is crawled')
  t.equal(reasons['/huge.xml'], 'sitemap took longer than 0.3 s to read', 'the sitemap is skipped, its thread stopped')
  t.ok(loop.max < 1e9, `the event loop was never held for a second (longest ${Math.round(loop.max / 1e6)} ms)`)
})

t.test('a page thread loaded and idle when its crawl ends serves the next crawl, without the parses it kept', async (t) => {
  const url = 'http://shop.test/returns'
  const html = '<html><head><title>Returns</title></head><body><main><p>Any item can be returned within thirty days.</p></main></body></html>'
  const first = new PageThread('TestBot')
  const read = await first.read(html, url, undefined)
  if (!('key' in read)) throw new Error('the page was not read')
  t.match(await first.content(read.key, 'Returns', url), [{ text: 'Any item can be returned within thirty days.' }], 'its content, read from the parse kept')
  const kept = await first.read(html, url, undefined)
  if (!('key' in kept)) throw new Error('the page was not read')
  const parked = parkedPageThreads()
  await first.close()
  t.equal(parkedPageThreads(), parked + 1, 'kept for the next crawl')
  await t.rejects(first.read(html, url, undefined), /closed/, 'the ended crawl cannot use it')

  const next = new PageThread('TestBot')
  t.equal(await next.content(kept.key, 'Returns', url), undefined, 'the parse the ended crawl kept is forgotten')
  t.equal(parkedPageThreads(), parked, 'taken by the next crawl')
  const again = await next.read(html, url, undefined)
  t.ok('key' in again, 'and reads pages')
  await next.close()

  const larger = new PageThread('TestBot', { timeoutMs: 30_000, maxHeapMb: 300 })
  larger.warm()
  t.equal(parkedPageThreads(), parked + 1, 'a crawl with another heap limit starts a thread of its own')
  await larger.close()
})

t.test('a compressed page is decompressed, and bounded by its decompressed size', async (t) => {
  const site = await startSite(t, {
    '/': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync('<title>Zipped</title><a href="/bomb">b</a><a href="/odd">o</a>')) },
    '/bomb': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20))) },
    '/odd': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd-or-something' }).end('??') }
  })
  const { pages, reasons } = await crawlAll(`${site.origin}/`)
  t.match(pages, [{ html: '<title>Zipped</title><a href="/bomb">b</a><a href="/odd">o</a>' }])
  t.same(reasons, { '/bomb': 'larger than 64 KiB', '/odd': 'unsupported Content-Encoding zstd-or-something' })
})

t.test('too many redirects are not followed', async (t) => {
  const routes: Record<string, Route> = { '/': page('<a href="/r0">chain</a>') }
  for (let i = 0; i < 8; i++) routes[`/r${i}`] = redirect(`/r${i + 1}`)
  routes['/r8'] = page('<title>end</title>')
  const site = await startSite(t, routes)
  const { reasons } = await crawlAll(`${site.origin}/`, { ...local, maxRedirects: 3 })
  t.same(reasons, { '/r0': 'more than 3 redirects' })
  t.notOk(paths(site).includes('/r4'), 'the fourth redirect is not followed')
})

t.test('a robots.txt that answers 503 leaves the whole site alone (RFC 9309)', async (t) => {
  const site = await startSite(t, {
    '/robots.txt': (_req, res) => { res.writeHead(503).end() },
    '/': page('<title>Home</title>')
  })
  const { pages, report } = await crawlAll(`${site.origin}/`)
  t.equal(pages.length, 0)
  t.match(report.skipped, [{ url: `${site.origin}/robots.txt`, reason: /answered 503; RFC 9309/ }])
  t.same(paths(site), ['/robots.txt'])
})

t.test('robots.txt groups for our name win over *', async (t) => {
  const site = await startSite(t, {
    '/robots.txt': (_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n\nUser-agent: ChatSearchBot\nDisallow: /drafts\n') },
    '/': page('<a href="/help">Help</a><a href="/drafts/x">Draft</a>'),
    '/help': page('<title>Help</title>')
  })
  const { urls, reasons } = await crawlAll(`${site.origin}/`)
  t.same(urls, ['/', '/help'])
  t.same(reasons, { '/drafts/x': 'disallowed by robots.txt' })
})

t.test('an unreachable site and a bad start URL are the crawl\'s own errors', async (t) => {
  const port = await freePort()
  await t.rejects(crawl(`http://127.0.0.1:${port}/`, local, async () => {}), { code: 'invalid_request', message: /cannot be crawled: could not be fetched \(ECONNREFUSED\)/ })
  await t.rejects(crawl('ftp://example.com/', local, async () => {}), { code: 'invalid_request', message: /absolute http or https URL/ })
  await t.rejects(crawl('/relative', local, async () => {}), { code: 'invalid_request' })
  await t.rejects(crawl(`http://user:pw@127.0.0.1:${port}/`, local, async () => {}), { code: 'invalid_request', message: /user name or password/ })
})

t.test('an abort ends the crawl with its reason; an error of onPage ends it with that error', async (t) => {
  const routes: Record<string, Route> = { '/': page(Array.from({ length: 10 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('')) }
  for (let i = 0; i < 10; i++) {
    routes[`/p${i}`] = async (_req, res) => {
      await sleep(30)
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>p</title>')
    }
  }
  const site = await startSite(t, routes)
  const controller = new AbortController()
  const reason = new Error('shutting down')
  await t.rejects(crawl(`${site.origin}/`, { ...local, signal: controller.signal, onProgress: ({ done }) => { if (done === 3) controller.abort(reason) } }, async () => {}), reason)
  const asked = site.requests.length
  await sleep(100)
  t.equal(site.requests.length, asked, 'no request after the abort')
  t.ok(asked < 8)

  const late = new AbortController()
  await t.rejects(crawl(`${site.origin}/`, { ...local, signal: late.signal }, async () => { late.abort(reason) }), reason, 'an abort during onPage counts too')

  const failure = new Error('index is full')
  let calls = 0
  await t.rejects(crawl(`${site.origin}/`, local, async () => { if (++calls === 2) throw failure }), failure)
})
