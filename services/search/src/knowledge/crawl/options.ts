import { readFileSync } from 'node:fs'
import type { LookupFunction } from '@chatsearch/shell'
import { PAGE_THREAD_DEFAULTS } from './page-thread.js'

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }

/** The name robots.txt groups address us by (the product token of the user agent). */
export const BOT_NAME = 'ChatSearchBot'
/** Names the service and its version, so a site owner can recognise the crawler and address it in robots.txt. */
export const DEFAULT_USER_AGENT = `${BOT_NAME}/${version} (self-hosted Chat and Search Service)`

/** spec/knowledge.md: `max_pages` defaults to 200 and is at most 5000. */
export const DEFAULT_MAX_PAGES = 200
export const MAX_PAGES = 5000
/**
 * A crawl's time for fetching pages (CRAWL_MAX_MINUTES): 5000 pages of a site that answers each in
 * 15 s, two at a time, would otherwise hold a task slot for ten hours.
 */
export const DEFAULT_CRAWL_MINUTES = 60

export interface CrawlProgress {
  /** Pages fetched (whatever came of them). */
  done: number
  /** URLs discovered so far, counted up to maxPages: the crawl is over when done reaches it. */
  total: number
}

export interface CrawlOptions {
  /** Page fetches, whatever their outcome (default 200, at most 5000). */
  maxPages?: number
  /** A page's whole answer, redirects, headers and body, within this time (default 15 s). */
  perPageTimeoutMs?: number
  /** A page's body, decompressed, at most this large (default 5 MiB). */
  maxPageBytes?: number
  /** One page's parse, or its content's reading and chunking, on the crawl's page thread (default 30 s). */
  parseTimeoutMs?: number
  /** The page thread's JavaScript heap (default 512 MiB, at least 256: a parse that outgrows a small heap can abort the process rather than the thread). */
  parseMaxHeapMb?: number
  /** No page or sitemap is fetched after this long from the start (default 60 minutes); what was fetched is kept. */
  maxDurationMs?: number
  /** Redirects followed for one URL (default 5). */
  maxRedirects?: number
  /** Fetches at a time on the origin (default and at most 2, spec/knowledge.md). */
  concurrency?: number
  userAgent?: string
  /** Connect to loopback, private and other internal addresses too (CRAWL_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks?: boolean
  /**
   * Host names trusted whatever they resolve to, for tests and local setups that crawl one known
   * internal site while every other internal address stays refused. Not read from the environment.
   */
  allowHosts?: string[]
  /** How host names are resolved (default dns.lookup); tests map names to local servers with it. */
  lookup?: LookupFunction
  /** Ends the crawl: crawl() then rejects with the signal's reason. */
  signal?: AbortSignal
  onProgress?: (progress: CrawlProgress) => void
}

export type ResolvedOptions = Required<Omit<CrawlOptions, 'lookup' | 'signal' | 'onProgress'>> & Pick<CrawlOptions, 'lookup' | 'signal' | 'onProgress'>

export function resolveOptions (options: CrawlOptions): ResolvedOptions {
  return {
    ...options,
    maxPages: bounded(options.maxPages, DEFAULT_MAX_PAGES, 1, MAX_PAGES),
    perPageTimeoutMs: bounded(options.perPageTimeoutMs, 15_000, 1, 300_000),
    maxPageBytes: bounded(options.maxPageBytes, 5 * 1024 * 1024, 1, 100 * 1024 * 1024),
    parseTimeoutMs: bounded(options.parseTimeoutMs, PAGE_THREAD_DEFAULTS.timeoutMs, 1, 600_000),
    parseMaxHeapMb: bounded(options.parseMaxHeapMb, PAGE_THREAD_DEFAULTS.maxHeapMb, 256, 4096),
    maxDurationMs: bounded(options.maxDurationMs, DEFAULT_CRAWL_MINUTES * 60_000, 1, 24 * 3600_000),
    maxRedirects: bounded(options.maxRedirects, 5, 0, 20),
    concurrency: bounded(options.concurrency, 2, 1, 2),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    allowHosts: (options.allowHosts ?? []).map((host) => host.toLowerCase())
  }
}

function bounded (value: number | undefined, fallback: number, min: number, max: number): number {
  return value === undefined ? fallback : Math.min(max, Math.max(min, Math.floor(value)))
}
