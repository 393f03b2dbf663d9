import { gzipSync } from 'node:zlib'
import t from 'tap'
import { extractLinks } from '../src/knowledge/crawl/links.js'
import { parseSitemap } from '../src/knowledge/crawl/sitemap.js'
import { normaliseUrl } from '../src/knowledge/crawl/url.js'
import { loadHtml } from '../src/knowledge/parse/html.js'

const base = new URL('https://shop.example/help/returns')

t.test('links are resolved, normalised, without fragments, each once', async (t) => {
  const found = extractLinks(loadHtml(`<html><head><title>  Returns
    policy </title></head><body>
    <a href="shipping">a</a> <a href="/help/shipping#costs">b</a> <a href="../HELP/./faq?q=1#x">c</a>
    <a href="HTTPS://SHOP.EXAMPLE:443/">d</a> <a href="mailto:x@y.z">e</a> <a href="javascript:void(0)">f</a>
    <a href="http://[bad">g</a> <a href="//cdn.example/file">h</a> <a href="/ad" rel="sponsored nofollow">i</a> <a>j</a>
  </body></html>`), base, undefined, 'ChatSearchBot')
  t.equal(found.title, 'Returns policy')
  t.same(found.links.map((u) => u.href), [
    'https://shop.example/help/shipping',
    'https://shop.example/HELP/faq?q=1',
    'https://shop.example/',
    'https://cdn.example/file'
  ])
  t.equal(found.canonical, undefined)
  t.equal(found.noindex, false)
  t.equal(found.nofollow, false)
})

t.test('<base href> changes what relative links mean; canonical is resolved too', async (t) => {
  const found = extractLinks(loadHtml('<base href="/docs/"><link rel="Canonical" href="guide#top"><a href="intro">x</a>'), base, undefined, 'ChatSearchBot')
  t.same(found.links.map((u) => u.href), ['https://shop.example/docs/intro'])
  t.equal(found.canonical?.href, 'https://shop.example/docs/guide')
})

t.test('robots directives come from meta robots, meta for our bot, and X-Robots-Tag', async (t) => {
  const html = (meta: string) => `<head>${meta}</head><a href="/x">x</a>`
  t.match(extractLinks(loadHtml(html('<meta name="robots" content="NOINDEX, follow">')), base, undefined, 'ChatSearchBot'), { noindex: true, nofollow: false })
  t.match(extractLinks(loadHtml(html('<meta name="chatsearchbot" content="nofollow">')), base, undefined, 'ChatSearchBot'), { noindex: false, nofollow: true })
  t.match(extractLinks(loadHtml(html('<meta name="otherbot" content="none">')), base, undefined, 'ChatSearchBot'), { noindex: false, nofollow: false })
  t.match(extractLinks(loadHtml(html('<meta name="robots" content="none">')), base, undefined, 'ChatSearchBot'), { noindex: true, nofollow: true })
  t.match(extractLinks(loadHtml(html('')), base, 'noindex', 'ChatSearchBot'), { noindex: true, nofollow: false })
})

t.test('URLs are normalised the WHATWG way', async (t) => {
  t.equal(normaliseUrl('HTTP://Example.COM:80/a/../b?x=1#frag')?.href, 'http://example.com/b?x=1')
  t.equal(normaliseUrl('ftp://example.com/'), undefined)
  t.equal(normaliseUrl('not a url'), undefined)
})

const urlset = (locs: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc><lastmod>2026-01-01</lastmod></url>`).join('')}</urlset>`

t.test('sitemaps: urlsets, indexes, gzip, prefixes', async (t) => {
  t.same(await parseSitemap(Buffer.from(urlset(['https://shop.example/a', ' https://shop.example/b?x=1&amp;y=2 '])), 1e6),
    { pages: ['https://shop.example/a', 'https://shop.example/b?x=1&y=2'], sitemaps: [] })
  t.same(await parseSitemap(Buffer.from(urlset(['https://shop.example/only'])), 1e6), { pages: ['https://shop.example/only'], sitemaps: [] }, 'one <url> is a list too')
  t.same(await parseSitemap(gzipSync(urlset(['https://shop.example/z'])), 1e6), { pages: ['https://shop.example/z'], sitemaps: [] })
  t.same(await parseSitemap(Buffer.from('<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://shop.example/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>'), 1e6),
    { pages: [], sitemaps: ['https://shop.example/s1.xml'] })
})

t.test('sitemaps: a gzip bomb, entities, broken XML and other documents are refused with a reason', async (t) => {
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024))
  t.ok(bomb.length < 64 * 1024, 'a few KiB on the wire')
  t.equal(await parseSitemap(bomb, 1024 * 1024), 'sitemap larger than 1048576 bytes once decompressed')
  t.equal(await parseSitemap(Buffer.from([0x1f, 0x8b, 1, 2, 3]), 1e6), 'sitemap is not valid gzip')
  t.equal(await parseSitemap(Buffer.from('<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><urlset><url><loc>&b;</loc></url></urlset>'), 1e6), 'sitemap declares XML entities')
  t.match(await parseSitemap(Buffer.from('<urlset><url><loc>x</url></urlset>'), 1e6), /^sitemap is not well-formed XML/)
  t.equal(await parseSitemap(Buffer.from('<html><body>Not found</body></html>'), 1e6), 'not a sitemap (no <urlset> or <sitemapindex>)')
})
