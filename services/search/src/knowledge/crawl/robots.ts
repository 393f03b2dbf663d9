import robotsParserModule from 'robots-parser'
import { decodeText, fetchBounded, type FetcherContext, type FetchFailure } from './fetcher.js'

// The package is CommonJS (`module.exports = fn`) while its types declare an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default

/** RFC 9309 asks crawlers to parse at least 500 KiB of robots.txt; more is not read. */
const MAX_ROBOTS_BYTES = 512 * 1024

export interface RobotsRules {
  allowed: (url: URL) => boolean
  /** The `Sitemap:` lines, as written. */
  sitemaps: string[]
  /** Set when robots.txt could not be read in a way that RFC 9309 treats as "disallow everything". */
  blocked?: string
}

/**
 * The origin's robots.txt (RFC 9309), read for `botName`. A 4xx answer means no rules; a 5xx answer
 * or a failed read means the site is to be left alone for now. The first request the crawl sends,
 * so its failure to connect at all is returned for the caller to report as the crawl's own failure.
 */
export async function readRobots (ctx: FetcherContext, botName: string): Promise<RobotsRules | FetchFailure> {
  const url = new URL('/robots.txt', ctx.origin)
  const outcome = await fetchBounded(ctx, url, { accept: () => true, notAccepted: '', maxBytes: MAX_ROBOTS_BYTES })
  if (outcome.ok) {
    const robots = robotsParser(url.href, decodeText(outcome.body, outcome.charset))
    return {
      allowed: (target) => robots.isAllowed(target.href, botName) !== false,
      sitemaps: robots.getSitemaps()
    }
  }
  if (outcome.refused === true || (outcome.unreachable === true && outcome.failedUrl.href === url.href)) return outcome
  const status = outcome.status ?? 0
  if (status >= 400 && status < 500) return { allowed: () => true, sitemaps: [] }
  // A redirect that leads nowhere usable is treated like "no robots.txt" (RFC 9309 2.3.1.2).
  if (status >= 300 && status < 400) return { allowed: () => true, sitemaps: [] }
  return { allowed: () => false, sitemaps: [], blocked: `robots.txt ${outcome.reason}; RFC 9309 asks crawlers to assume the whole site is disallowed until it answers` }
}
