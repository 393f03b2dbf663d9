import { Agent } from 'undici'
import { ApiError, guardedLookup, refuseLiteral, type AddressPolicy } from '@chatsearch/shell'
import { knowledgeLimits } from '@chatsearch/contracts'
import type { Chunk } from '../types.js'
import { decodeText, fetchBounded, type FetcherContext } from './fetcher.js'
import type { PageLinks } from './links.js'
import { acquireOriginQueue } from './origin-queue.js'
import { BOT_NAME, resolveOptions, type CrawlOptions, type ResolvedOptions } from './options.js'
import { PageThread, type PageRead } from './page-thread.js'
import { readRobots, type RobotsRules } from './robots.js'
import { MAX_SITEMAP_BYTES, readSitemaps } from './sitemap.js'
import { normaliseUrl, sameOrigin } from './url.js'

/** A page the crawl delivers: HTML, on the origin, allowed by robots.txt and not marked noindex. */
export interface FetchedPage {
  /** The page's canonical URL: its `<link rel=canonical>` on the same origin, else finalUrl. */
  url: string
  /** Where the page was fetched from, after redirects. */
  finalUrl: string
  status: number
  /** The media type, e.g. `text/html`. */
  contentType: string
  /** The page's `<title>`, trimmed ('' when it has none). */
  title: string
  /** The body, decoded with the charset of Content-Type (UTF-8 when none). */
  html: string
  /**
   * The main content's chunks, with `url` as their URL, read on the first call from the parse the links
   * came from, on the crawl's page thread. That parse is let go when onPage returns, so a page whose
   * content is not wanted (unchanged) costs no more: undefined if first called after that, and when the
   * HTML cannot be read (nested too deep, too many elements: parseHtml on `html` says why); `skip` when
   * the thread gave up on it (time, memory).
   */
  content: () => Promise<Chunk[] | undefined | { skip: string }>
}

export interface CrawlReport {
  /** Pages delivered to onPage. */
  pages: number
  /** URLs not delivered, and why (the first 1000). */
  skipped: Array<{ url: string, reason: string }>
  /** Skipped URLs beyond the first 1000. */
  skippedOmitted: number
  /** More URLs were found than maxPages allowed to fetch. */
  truncated: boolean
  /** The crawl's time (maxDurationMs) ran out with URLs found but not fetched. */
  outOfTime: boolean
}

const MAX_SKIPPED = 1000
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])

/**
 * Crawls the site at `startUrl` (spec/knowledge.md): robots.txt, then the pages its sitemaps (and
 * /sitemap.xml) list, then the links found in pages, breadth first, on the start URL's origin only,
 * at most `concurrency` fetches at a time. Each page delivered is passed to `onPage`, awaited.
 * Rejects with an ApiError when the site cannot be crawled at all (not an http(s) URL, an internal
 * address, unreachable), with `signal`'s reason when aborted, and with onPage's error when it throws.
 */
export async function crawl (startUrl: string, options: CrawlOptions, onPage: (page: FetchedPage) => Promise<void>): Promise<CrawlReport> {
  const startedAt = Date.now()
  const opts = resolveOptions(options)
  const policy: AddressPolicy = { allowPrivateNetworks: opts.allowPrivateNetworks, allowHosts: opts.allowHosts, hint: 'set CRAWL_ALLOW_PRIVATE_NETWORKS=true to crawl internal networks' }
  const start = startUrlOf(startUrl, policy)
  opts.signal?.throwIfAborted()

  const stop = new AbortController()
  const signal = opts.signal === undefined ? stop.signal : AbortSignal.any([opts.signal, stop.signal])
  const dispatcher = new Agent({
    connect: { lookup: guardedLookup(policy, opts.lookup), timeout: opts.perPageTimeoutMs },
    connections: opts.concurrency,
    // The page's own deadline (fetcher.ts) comes first; these only stop a socket nobody watches.
    headersTimeout: opts.perPageTimeoutMs + 1000,
    bodyTimeout: opts.perPageTimeoutMs + 1000
  })
  const queue = acquireOriginQueue(start.origin, opts.concurrency)
  const ctx: FetcherContext = {
    origin: start,
    policy,
    dispatcher,
    userAgent: opts.userAgent,
    timeoutMs: opts.perPageTimeoutMs,
    maxRedirects: opts.maxRedirects,
    schedule: queue.schedule,
    signal
  }
  const pageThread = new PageThread(BOT_NAME, { timeoutMs: opts.parseTimeoutMs, maxHeapMb: opts.parseMaxHeapMb })
  pageThread.warm()
  try {
    const robots = await readRobots(ctx, BOT_NAME)
    if ('ok' in robots) throw new ApiError('invalid_request', `${start.origin} cannot be crawled: ${robots.reason}`)
    return await new CrawlRun(ctx, opts, start, robots, stop, pageThread, onPage, startedAt + opts.maxDurationMs).run()
  } finally {
    queue.release()
    await Promise.all([dispatcher.destroy(), pageThread.close()])
  }
}

function startUrlOf (startUrl: string, policy: AddressPolicy): URL {
  const start = normaliseUrl(startUrl)
  if (start === undefined) throw new ApiError('invalid_request', `url must be an absolute http or https URL, not ${JSON.stringify(startUrl)}`)
  if (start.username !== '' || start.password !== '') throw new ApiError('invalid_request', 'url must not carry a user name or password')
  const refusal = refuseLiteral(start.hostname, policy)
  if (refusal !== undefined) throw new ApiError('invalid_request', `${start.origin} cannot be crawled: ${refusal.message}`)
  return start
}

/** One crawl's state: what was found, what is left, what was skipped. */
class CrawlRun {
  private readonly seen = new Set<string>()
  /** Canonical and final URLs whose content was delivered or fetched: not fetched again. */
  private readonly covered = new Set<string>()
  /**
   * Canonical URLs delivered (or being delivered): a page is delivered once, whichever comes first of
   * it and a page naming it canonical, even when both were fetched at once.
   */
  private readonly delivered = new Set<string>()
  private readonly frontier: URL[] = []
  private next = 0
  private done = 0
  private pages = 0
  private truncated = false
  private outOfTime = false
  private readonly skipped: CrawlReport['skipped'] = []
  private skippedOmitted = 0

  constructor (
    private readonly ctx: FetcherContext,
    private readonly opts: ResolvedOptions,
    private readonly start: URL,
    private readonly robots: RobotsRules,
    private readonly stop: AbortController,
    private readonly pageThread: PageThread,
    private readonly onPage: (page: FetchedPage) => Promise<void>,
    /** Date.now() after which nothing more is fetched. */
    private readonly deadline: number
  ) {
    this.ctx = { ...ctx, allowed: robots.allowed }
  }

  async run (): Promise<CrawlReport> {
    if (this.robots.blocked !== undefined) {
      this.skip(new URL('/robots.txt', this.start), this.robots.blocked)
    } else {
      this.discover(this.start)
      await readSitemaps(this.ctx, this.robots.sitemaps, {
        wanted: () => !this.full() && this.inTime(),
        page: (url) => this.discover(url),
        skip: (url, reason) => this.skip(url, reason)
      }, async (body, url) => await this.pageThread.sitemap(body, url, MAX_SITEMAP_BYTES))
      this.progress()
      await this.fetchFrontier()
    }
    return { pages: this.pages, skipped: this.skipped, skippedOmitted: this.skippedOmitted, truncated: this.truncated, outOfTime: this.outOfTime }
  }

  /** Whether the crawl may still fetch; once not, it says it ran out of time. */
  private inTime (): boolean {
    if (Date.now() < this.deadline) return true
    this.outOfTime = true
    return false
  }

  /** Fetches the frontier breadth first, `concurrency` pages at a time, until it is empty or maxPages were fetched. */
  private async fetchFrontier (): Promise<void> {
    const inflight = new Set<Promise<void>>()
    let failure: { error: unknown } | undefined
    for (;;) {
      while (failure === undefined && this.ctx.signal?.aborted !== true && inflight.size < this.opts.concurrency && this.next < this.frontier.length && this.inTime()) {
        const url = this.frontier[this.next++]!
        if (this.covered.has(url.href)) {
          this.done++
          continue
        }
        const task: Promise<void> = this.visit(url)
          .catch((error: unknown) => {
            failure ??= { error }
            this.stop.abort(error)
          })
          .finally(() => {
            inflight.delete(task)
            this.done++
            this.progress()
          })
        inflight.add(task)
      }
      if (inflight.size === 0) break
      await Promise.race(inflight)
    }
    if (failure !== undefined) throw failure.error
    this.ctx.signal?.throwIfAborted()
  }

  private async visit (url: URL): Promise<void> {
    const outcome = await fetchBounded(this.ctx, url, {
      accept: (type) => HTML_TYPES.has(type),
      notAccepted: 'not HTML',
      maxBytes: this.opts.maxPageBytes
    })
    if (!outcome.ok) return this.skip(url, outcome.reason)

    const final = outcome.finalUrl
    if (final.href !== url.href && this.covered.has(final.href)) return this.skip(url, `redirects to ${final.href}, already crawled`)
    this.covered.add(final.href)
    this.seen.add(final.href)

    const html = decodeText(outcome.body, outcome.charset)
    const robotsHeader = outcome.headers['x-robots-tag']
    const read = await this.pageThread.read(html, final.href, Array.isArray(robotsHeader) ? robotsHeader.join(', ') : robotsHeader)
    // Unlike the other skips (the URL as linked), under the URL it was fetched from, after redirects:
    // the id a crawl stored it under when it has no canonical URL, so that the task keeps that copy.
    if ('skip' in read) return this.skip(final, read.skip)
    if (this.ctx.signal?.aborted === true) {
      if ('key' in read) this.pageThread.release(read.key)
      this.ctx.signal.throwIfAborted()
    }
    const found = 'key' in read ? linksOf(read) : UNREADABLE
    if (!found.nofollow) for (const link of found.links) this.discover(link)

    const key = 'key' in read ? read.key : undefined
    const canonical = found.canonical !== undefined && sameOrigin(found.canonical, this.start) ? found.canonical : final
    const notDelivered = found.noindex
      ? 'marked noindex'
      : this.delivered.has(canonical.href) ? `duplicate of ${canonical.href} (its canonical URL), already crawled` : undefined
    if (notDelivered !== undefined) {
      if (key !== undefined) this.pageThread.release(key)
      return this.skip(url, notDelivered)
    }
    this.covered.add(canonical.href)
    this.delivered.add(canonical.href)
    this.seen.add(canonical.href)

    // The parse is the thread's until its content is asked for once, or let go when onPage returns.
    let held = key !== undefined
    let content: Promise<Chunk[] | undefined | { skip: string }> | undefined
    const readContentOnce = () => {
      if (content === undefined) {
        content = held ? this.pageThread.content(key!, found.title === '' ? canonical.href : found.title, canonical.href.slice(0, knowledgeLimits.urlMaxChars)) : Promise.resolve(undefined)
        held = false
      }
      return content
    }
    try {
      await this.onPage({ url: canonical.href, finalUrl: final.href, status: outcome.status, contentType: outcome.mediaType, title: found.title, html, content: readContentOnce })
    } finally {
      if (held) this.pageThread.release(key!)
      held = false
    }
    this.pages++
  }

  /** Queues a URL found in a sitemap or a page, once, if the crawl may fetch it. */
  private discover (url: URL): void {
    if (this.seen.has(url.href)) return
    this.seen.add(url.href)
    if (!sameOrigin(url, this.start)) return this.skip(url, `outside ${this.start.origin}`)
    if (!this.robots.allowed(url)) return this.skip(url, 'disallowed by robots.txt')
    if (this.full()) {
      this.truncated = true
      return
    }
    this.frontier.push(url)
  }

  /** The frontier holds as many URLs as the crawl may fetch. */
  private full (): boolean {
    return this.frontier.length >= this.opts.maxPages
  }

  private skip (url: URL, reason: string): void {
    if (this.skipped.length < MAX_SKIPPED) this.skipped.push({ url: url.href, reason })
    else this.skippedOmitted++
  }

  private progress (): void {
    this.opts.onProgress?.({ done: this.done, total: this.frontier.length })
  }
}

/** A page whose HTML cannot be read: no links are followed from it. */
const UNREADABLE: PageLinks = { title: '', links: [], noindex: false, nofollow: false }

function linksOf (read: Extract<PageRead, { key: number }>): PageLinks {
  const { canonical, links, ...rest } = read.links
  return { ...rest, ...(canonical === undefined ? {} : { canonical: new URL(canonical) }), links: links.map((link) => new URL(link)) }
}
