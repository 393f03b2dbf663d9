import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { knowledgeLimits, type KnowledgeCrawlBody } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'
import type { IncomingKnowledge, KnowledgeIndex } from '../engine/port.js'
import { DocumentError } from '../ingest/validate.js'
import { crawl, type FetchedPage } from '../knowledge/crawl/crawl.js'
import { isStored, storeKnowledge } from '../knowledge/ingest.js'
import type { TaskHandler } from './queue.js'

/** What a knowledge task writes with: the service's app, or the CLI's engine and embedder. */
export type KnowledgeWriter = Pick<FastifyInstance, 'engine' | 'embedder'>

/** Pages stored (and embedded) together: a few seconds of work with the bundled model. */
const PAGES_PER_WRITE = 10
/** Reasons kept in the task's details; the count of the others is given. */
const SKIPPED_SHOWN = 50

const digest = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length)

/**
 * The ids of one start URL's pages: `web-<start>-<page>`, each a digest of the URL. A re-crawl of the
 * same start URL gives a page the same id (it replaces it) and finds the pages it no longer sees.
 */
export const crawlPrefix = (startUrl: string) => `web-${digest(new URL(startUrl).href, 12)}-`
const pageId = (prefix: string, url: string) => `${prefix}${digest(url, 24)}`

function documentOf (prefix: string, page: FetchedPage): IncomingKnowledge {
  const title = (page.title === '' ? page.url : page.title).slice(0, knowledgeLimits.titleMaxChars)
  return { id: pageId(prefix, page.url), kind: 'web', title, content: page.html, format: 'html', url: page.url.slice(0, knowledgeLimits.urlMaxChars) }
}

/** The ids under `prefix` that the index holds, read page by page. */
async function storedIds (index: KnowledgeIndex, prefix: string): Promise<string[]> {
  const ids: string[] = []
  const limit = 1000
  for (let offset = 0; ; offset += limit) {
    const { results } = await index.list({ limit, offset, kind: 'web' })
    for (const r of results) if (r.id.startsWith(prefix)) ids.push(r.id)
    if (results.length < limit) return ids
  }
}

/** What the operator allows a crawl (CRAWL_ALLOW_PRIVATE_NETWORKS, CRAWL_MAX_MINUTES). */
export interface CrawlLimits { allowPrivateNetworks: boolean, maxMinutes?: number }

/** The limits a service or CLI configuration gives its crawls. */
export const crawlLimitsOf = (config: { crawlAllowPrivateNetworks?: boolean, crawlMaxMinutes?: number }): CrawlLimits =>
  ({ allowPrivateNetworks: config.crawlAllowPrivateNetworks ?? false, ...(config.crawlMaxMinutes === undefined ? {} : { maxMinutes: config.crawlMaxMinutes }) })

/**
 * Crawls a website into the project's knowledge (spec/knowledge.md): pages stored as they come, ten
 * at a time; a page without text is skipped with its reason. Once the crawl has gone through the
 * whole site (not cut by max_pages), the pages of an earlier crawl of the same start URL that it
 * neither found nor failed to fetch are removed. Run again after a replica died, it stores the same
 * pages under the same ids: unchanged ones are not embedded again. A crawl out of time keeps what it
 * stored and removes nothing.
 */
export function knowledgeCrawl (app: KnowledgeWriter, limits: CrawlLimits): TaskHandler {
  return async ({ projectId, payload, progress, details, signal }) => {
    const { url, max_pages: maxPages } = payload as KnowledgeCrawlBody
    const index = await app.engine.knowledge(projectId)
    const prefix = crawlPrefix(url)
    const counts = { pages: 0, indexed: 0, unchanged: 0, removed: 0 }
    /** Pages delivered but not stored: no text in their main content, or the page thread gave up on them. */
    const notStored: Array<{ url: string, reason: string }> = []
    const kept = new Set<string>()
    let pending: IncomingKnowledge[] = []

    const add = (result: { indexed: number, unchanged: number }) => {
      counts.indexed += result.indexed
      counts.unchanged += result.unchanged
    }
    const write = async () => {
      const batch = pending
      pending = []
      try {
        add(await storeKnowledge(index, batch, app.embedder))
      } catch (err) {
        if (!(err instanceof DocumentError)) throw err
        // A page without text rejects its whole batch: the others are stored one by one, that one skipped.
        for (const document of batch) {
          try {
            add(await storeKnowledge(index, [document], app.embedder))
          } catch (err) {
            if (!(err instanceof DocumentError)) throw err
            kept.delete(document.id)
            notStored.push({ url: document.url ?? document.id, reason: 'no text in its main content' })
          }
        }
      }
    }

    const report = await crawl(url, {
      ...(maxPages === undefined ? {} : { maxPages }),
      allowPrivateNetworks: limits.allowPrivateNetworks,
      ...(limits.maxMinutes === undefined ? {} : { maxDurationMs: limits.maxMinutes * 60_000 }),
      signal,
      // A failed write of progress (the task taken over) also aborts `signal`, which ends the crawl.
      onProgress: ({ done, total }) => { progress(done, total).catch(() => {}) }
    }, async (page) => {
      const document = documentOf(prefix, page)
      kept.add(document.id)
      // A changed page is chunked from the parse its links came from (released once this returns);
      // one the crawl could not read is parsed when stored. One the page thread gave up on keeps
      // what an earlier crawl stored of it, as a page that failed to load does.
      if (!await isStored(index, document)) {
        const content = await page.content()
        if (content !== undefined && 'skip' in content) {
          notStored.push({ url: page.url, reason: content.skip })
          return
        }
        if (content !== undefined) document.chunks = content
      }
      counts.pages++
      pending.push(document)
      if (pending.length >= PAGES_PER_WRITE) await write()
    })
    if (pending.length > 0) await write()

    if (!report.truncated && !report.outOfTime) {
      // A page that failed this time (timeout, 5xx) keeps what an earlier crawl stored of it. A
      // crawl canceled once its pages were fetched removes none, or no more.
      for (const skipped of report.skipped) kept.add(pageId(prefix, skipped.url))
      for (const id of await storedIds(index, prefix)) {
        signal.throwIfAborted()
        if (!kept.has(id) && await index.remove(id)) counts.removed++
      }
    }
    const skipped = [...notStored, ...report.skipped]
    await details({
      ...counts,
      truncated: report.truncated,
      out_of_time: report.outOfTime,
      skipped: skipped.slice(0, SKIPPED_SHOWN),
      skipped_more: skipped.length - Math.min(skipped.length, SKIPPED_SHOWN) + report.skippedOmitted
    })
    if (counts.pages === 0) throw new ApiError('invalid_request', `no page of ${url} could be indexed${skipped.length === 0 ? '' : `: ${skipped[0]!.url}: ${skipped[0]!.reason}`}`)
  }
}
