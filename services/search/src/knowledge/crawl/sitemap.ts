import { gunzipSync } from 'node:zlib'
import { XMLParser } from 'fast-xml-parser'
import { fetchBounded, type FetcherContext } from './fetcher.js'
import { normaliseUrl, sameOrigin } from './url.js'

/** sitemaps.org: a sitemap is at most 50 MB uncompressed; this bound holds the decompressed size too. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024
/** Sitemaps read per crawl, index files included. */
const MAX_SITEMAPS = 50

export interface SitemapVisitor {
  /** False once the crawl has found as many pages as it may fetch. */
  wanted: () => boolean
  page: (url: URL) => void
  skip: (url: URL, reason: string) => void
}

/**
 * Reads the sitemaps robots.txt names, then /sitemap.xml, and the sitemaps their indexes name, one at
 * a time through the crawl's fetcher, passing each page URL they list to `visitor`.
 */
/**
 * `parse` reads a fetched sitemap's body (parseSitemap, on the crawl's page thread: a sitemap of
 * 50 MB took 10 s to parse, which on the event loop held every project's searches).
 */
export async function readSitemaps (ctx: FetcherContext, named: string[], visitor: SitemapVisitor,
  parse: (body: Buffer, url: string) => Promise<SitemapEntries | string>): Promise<void> {
  const fallback = new URL('/sitemap.xml', ctx.origin)
  const queue: URL[] = []
  const queued = new Set<string>()
  const enqueue = (href: string, base: URL) => {
    const url = normaliseUrl(href, base)
    if (url === undefined || queued.has(url.href)) return
    queued.add(url.href)
    if (!sameOrigin(url, ctx.origin)) return visitor.skip(url, `sitemap outside ${ctx.origin.origin}`)
    queue.push(url)
  }
  for (const href of named) enqueue(href, ctx.origin)
  enqueue(fallback.href, ctx.origin)

  for (let read = 0; read < MAX_SITEMAPS && queue.length > 0 && visitor.wanted(); read++) {
    const url = queue.shift()!
    if (ctx.allowed !== undefined && !ctx.allowed(url)) {
      visitor.skip(url, 'sitemap disallowed by robots.txt')
      continue
    }
    const outcome = await fetchBounded(ctx, url, { accept: () => true, notAccepted: '', maxBytes: MAX_SITEMAP_BYTES })
    if (!outcome.ok) {
      // /sitemap.xml is only a guess: a site without one is no news.
      if (!(url.href === fallback.href && outcome.status === 404)) visitor.skip(url, `sitemap ${outcome.reason}`)
      continue
    }
    const entries = await parse(outcome.body, url.href)
    if (typeof entries === 'string') {
      visitor.skip(url, entries)
      continue
    }
    for (const loc of entries.pages) {
      const page = normaliseUrl(loc, outcome.finalUrl)
      if (page !== undefined) visitor.page(page)
    }
    for (const loc of entries.sitemaps) enqueue(loc, outcome.finalUrl)
  }
}

/** What one sitemap lists: pages (a `<urlset>`) or further sitemaps (a `<sitemapindex>`). */
export interface SitemapEntries {
  pages: string[]
  sitemaps: string[]
}

const parser = new XMLParser({
  ignoreAttributes: true,
  // Prefixed sitemaps (<sm:urlset>) are as valid as plain ones.
  removeNSPrefix: true,
  // XML's own five entities (&amp; in a query string) are decoded; HTML's are not XML.
  htmlEntities: false,
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap'
})

/**
 * Reads a sitemap (sitemaps.org), gzip-compressed or not. Decompression stops at `maxBytes` of output
 * (a small .gz can hold gigabytes of zeros), and a document that declares entities is refused rather
 * than expanded.
 */
export function parseSitemap (body: Buffer, maxBytes: number): SitemapEntries | string {
  let xml = body
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      xml = gunzipSync(body, { maxOutputLength: maxBytes })
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError
        ? `sitemap larger than ${maxBytes} bytes once decompressed`
        : 'sitemap is not valid gzip'
    }
  }
  const text = xml.toString('utf8')
  if (/<!ENTITY/i.test(text)) return 'sitemap declares XML entities'
  let document: Record<string, unknown>
  try {
    document = parser.parse(text, true) as Record<string, unknown>
  } catch (err) {
    return `sitemap is not well-formed XML (${(err as Error).message.split('\n')[0]})`
  }
  const urlset = document.urlset as { url?: Array<{ loc?: unknown }> } | undefined
  const index = document.sitemapindex as { sitemap?: Array<{ loc?: unknown }> } | undefined
  if (urlset === undefined && index === undefined) return 'not a sitemap (no <urlset> or <sitemapindex>)'
  return { pages: locations(urlset?.url), sitemaps: locations(index?.sitemap) }
}

function locations (entries: Array<{ loc?: unknown }> | undefined): string[] {
  return (entries ?? []).map((entry) => entry.loc).filter((loc): loc is string => typeof loc === 'string' && loc.trim() !== '').map((loc) => loc.trim())
}
