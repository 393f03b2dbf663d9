import { Worker } from 'node:worker_threads'
import { threadEntry } from '../../thread-entry.js'
import type { Chunk } from '../types.js'
import type { SitemapEntries } from './sitemap.js'

/** A page's links as they cross threads: URLs as strings (a URL object cannot be sent). */
export interface SentLinks { title: string, canonical?: string, links: string[], noindex: boolean, nofollow: boolean }

export type PageRequest =
  | { type: 'read', id: number, html: string, url: string, robotsHeader: string | undefined, botName: string }
  | { type: 'content', id: number, title: string, url: string }
  | { type: 'sitemap', id: number, body: Uint8Array, url: string, maxBytes: number }
  | { type: 'release', id: number }
  /** Forgets every parse kept: the thread is handed to the next crawl. */
  | { type: 'reset' }

export type PageAnswer =
  | { id: number, links: SentLinks }
  | { id: number, unreadable: true }
  | { id: number, chunks: Chunk[] | null }
  | { id: number, sitemap: SitemapEntries | string }
  | { id: number, error: string }

/** What reading a page gave: its links (its parse kept on the thread under `key`), or why there are none. */
export type PageRead =
  | { key: number, links: SentLinks }
  /** HTML nested too deep: delivered without links or content; storing it parses it again and says why. */
  | { unreadable: true }
  /** Past the thread's time or memory: the page is skipped with this reason. */
  | { skip: string }

export interface PageThreadLimits {
  /** One page's parse, or its content's reading and chunking; past it the thread is stopped. */
  timeoutMs: number
  /** The thread's JavaScript heap. */
  maxHeapMb: number
}

export const PAGE_THREAD_DEFAULTS: PageThreadLimits = { timeoutMs: 30_000, maxHeapMb: 512 }

/**
 * Threads of crawls that ended, idle and loaded, for the next crawl: a start costs 0.1 s compiled and
 * about 2 s from the TypeScript sources, more than a small site's whole crawl. They do not keep the
 * process alive and stop after a minute unused; at most two are kept.
 */
interface Spare { worker: Worker, maxHeapMb: number, timer: NodeJS.Timeout }
const spares: Spare[] = []
const SPARES_MAX = 2
const SPARE_IDLE_MS = 60_000

/** Where a thread's events go: to the crawl using it, or, while it is a spare, to the spares. */
interface ThreadListener {
  message: (answer: PageAnswer | { ready: true }) => void
  error: (err: Error & { code?: string }) => void
  exit: (code: number) => void
}
const listeners = new WeakMap<Worker, ThreadListener>()

function newThread (maxHeapMb: number): Worker {
  const worker = new Worker(threadEntry(import.meta.url, 'page-worker'), {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, maxHeapMb) }
  })
  worker.on('message', (answer: PageAnswer | { ready: true }) => listeners.get(worker)?.message(answer))
  worker.once('error', (err: Error) => listeners.get(worker)?.error(err))
  worker.once('exit', (code) => listeners.get(worker)?.exit(code))
  return worker
}

/** How many ended crawls' threads wait for the next crawl. */
export function parkedPageThreads (): number {
  return spares.length
}

function park (worker: Worker, maxHeapMb: number): void {
  if (spares.length >= SPARES_MAX) {
    listeners.delete(worker)
    worker.terminate().catch(() => {})
    return
  }
  worker.postMessage({ type: 'reset' } satisfies PageRequest)
  const spare: Spare = { worker, maxHeapMb, timer: setTimeout(() => drop(spare), SPARE_IDLE_MS).unref() }
  listeners.set(worker, { message: () => {}, error: () => drop(spare), exit: () => drop(spare) })
  worker.unref()
  spares.push(spare)
}

function takeSpare (maxHeapMb: number): Worker | undefined {
  const at = spares.findIndex((spare) => spare.maxHeapMb === maxHeapMb)
  if (at === -1) return undefined
  const [spare] = spares.splice(at, 1)
  clearTimeout(spare!.timer)
  listeners.delete(spare!.worker)
  spare!.worker.ref()
  return spare!.worker
}

function drop (spare: Spare): void {
  const at = spares.indexOf(spare)
  if (at !== -1) spares.splice(at, 1)
  clearTimeout(spare.timer)
  listeners.delete(spare.worker)
  spare.worker.terminate().catch(() => {})
}

/**
 * A crawl's pages are parsed, their links read, and their main content read and chunked on a thread
 * of the crawl's own: a page of 5 MiB with 100,000 links or deeply nested blocks takes Readability
 * 15–20 s, which on the event loop would hold every project's searches. One request runs at a time;
 * one that takes longer than `timeoutMs` (or more memory than `maxHeapMb`) stops the thread, its
 * page is skipped with the reason, and the next request starts a new thread (the parses the old one
 * kept are lost: their content reads as undefined, so storing them parses them again, bounded).
 */
export class PageThread {
  private thread: { worker: Worker, ready: Promise<void>, loaded: boolean } | undefined
  private nextId = 0
  private current: { id: number, worker: Worker, settle: (answer: PageAnswer | { failed: string }) => void } | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor (private readonly botName: string, private readonly limits: PageThreadLimits = PAGE_THREAD_DEFAULTS) {}

  /** Parses a page fetched from `url` (after redirects) and reads its links and robots directives. */
  async read (html: string, url: string, robotsHeader: string | undefined): Promise<PageRead> {
    const id = this.nextId++
    const answer = await this.ask({ type: 'read', id, html, url, robotsHeader, botName: this.botName })
    if ('failed' in answer) return { skip: answer.failed }
    if ('unreadable' in answer) return { unreadable: true }
    if ('links' in answer) return { key: id, links: answer.links }
    throw new Error(`reading ${url}: the thread answered no links`)
  }

  /**
   * The main content of a page read before, chunked, with `url` as its URL; undefined when it cannot
   * be read (too many elements, or its parse was lost), or why the thread gave up on it.
   */
  async content (key: number, title: string, url: string): Promise<Chunk[] | undefined | { skip: string }> {
    const answer = await this.ask({ type: 'content', id: key, title, url })
    if ('failed' in answer) return { skip: answer.failed }
    if ('chunks' in answer) return answer.chunks ?? undefined
    throw new Error(`reading ${url}: the thread answered no content`)
  }

  /** A sitemap's pages and sitemaps (parseSitemap), or why it cannot be read. */
  async sitemap (body: Buffer, url: string, maxBytes: number): Promise<SitemapEntries | string> {
    const answer = await this.ask({ type: 'sitemap', id: this.nextId++, body, url, maxBytes })
    if ('failed' in answer) return `sitemap ${answer.failed}`
    if ('sitemap' in answer) return answer.sitemap
    throw new Error(`reading ${url}: the thread answered no sitemap`)
  }

  /** Starts the thread ahead of the first page, so that its start overlaps the crawl's first fetches. */
  warm (): void {
    if (!this.closed) this.thread ??= this.start()
  }

  /** Lets go of a page's parse whose content is not wanted. */
  release (key: number): void {
    this.thread?.worker.postMessage({ type: 'release', id: key } satisfies PageRequest)
  }

  /**
   * Ends the crawl's use of the thread; a request after this rejects. A thread that is loaded and
   * idle is kept for the next crawl, with the parses it held forgotten; any other is stopped.
   */
  async close (): Promise<void> {
    this.closed = true
    const thread = this.thread
    this.thread = undefined
    if (thread === undefined) return
    if (thread.loaded && this.current === undefined) park(thread.worker, this.limits.maxHeapMb)
    else await thread.worker.terminate()
  }

  /** One request at a time: its time is its own, not that of the requests before it. */
  private ask (request: Extract<PageRequest, { type: 'read' | 'content' | 'sitemap' }>): Promise<Exclude<PageAnswer, { error: string }> | { failed: string }> {
    const asked = this.queue.then(() => this.send(request))
    this.queue = asked.catch(() => {})
    return asked
  }

  private async send (request: Extract<PageRequest, { type: 'read' | 'content' | 'sitemap' }>): Promise<Exclude<PageAnswer, { error: string }> | { failed: string }> {
    if (this.closed) throw new Error('the crawl is over: its page thread is closed')
    const { worker, ready } = this.thread ?? this.start()
    await ready
    // Stopped while this request waited for it to start (or closed): nothing would ever answer.
    if (this.thread?.worker !== worker) return { failed: 'the page-reading thread stopped before reading it' }
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(worker)
        settle({ failed: `took longer than ${this.limits.timeoutMs / 1000} s to read` })
      }, this.limits.timeoutMs)
      const settle = (answer: PageAnswer | { failed: string }) => {
        clearTimeout(timer)
        this.current = undefined
        if ('error' in answer) reject(new Error(`reading ${'url' in request ? request.url : 'a page'}: ${answer.error}`))
        else resolve(answer)
      }
      this.current = { id: request.id, worker, settle }
      worker.postMessage(request)
    })
  }

  /**
   * A new thread; `ready` once it has loaded, which a page's time does not count (from the TypeScript
   * sources a start takes seconds).
   */
  private start (): { worker: Worker, ready: Promise<void>, loaded: boolean } {
    const spare = takeSpare(this.limits.maxHeapMb)
    const worker = spare ?? newThread(this.limits.maxHeapMb)
    let started: { resolve: () => void, reject: (err: Error) => void } | undefined
    const ready = new Promise<void>((resolve, reject) => { started = { resolve, reject } })
    ready.then(() => { if (this.thread?.worker === worker) this.thread.loaded = true }, () => { if (this.thread?.worker === worker) this.thread = undefined })
    if (spare !== undefined) started!.resolve()
    // Only the request sent to this thread is settled by it: a stopped thread's late events are not.
    const waiting = () => this.current?.worker === worker ? this.current : undefined
    listeners.set(worker, {
      message: (answer) => {
        if ('ready' in answer) started!.resolve()
        else if (waiting()?.id === answer.id) waiting()!.settle(answer)
      },
      error: (err) => {
        this.stop(worker)
        started!.reject(err)
        const request = waiting()
        request?.settle(err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { failed: `needs more than ${this.limits.maxHeapMb} MiB of memory to read` }
          : { id: request.id, error: err.message })
      },
      exit: (code) => {
        if (this.thread?.worker === worker) this.thread = undefined
        started!.reject(new Error(`the page-reading thread stopped as it started (exit code ${code})`))
        const request = waiting()
        request?.settle({ id: request.id, error: `the page-reading thread stopped (exit code ${code})` })
      }
    })
    this.thread = { worker, ready, loaded: false }
    return this.thread
  }

  private stop (worker: Worker): void {
    if (this.thread?.worker === worker) this.thread = undefined
    worker.terminate().catch(() => {})
  }
}
