import { parentPort } from 'node:worker_threads'
import { chunkPage } from '../chunk.js'
import { FileRejected } from '../parse/file-rejected.js'
import { loadHtml, readContent, type HtmlDocument } from '../parse/html.js'
import { extractLinks } from './links.js'
import { parseSitemap } from './sitemap.js'
import type { PageAnswer, PageRequest } from './page-thread.js'

/**
 * A crawl's page-reading thread (see page-thread.ts): it parses each fetched page, answers its links,
 * and keeps the parse until its main content is asked for (then chunked) or let go. It answers the
 * requests in the order they come, one at a time.
 */
const parses = new Map<number, HtmlDocument>()

function answer (request: Exclude<PageRequest, { type: 'reset' }>): PageAnswer | undefined {
  if (request.type === 'release') {
    parses.delete(request.id)
    return undefined
  }
  if (request.type === 'sitemap') {
    return { id: request.id, sitemap: parseSitemap(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength), request.maxBytes) }
  }
  if (request.type === 'read') {
    let document: HtmlDocument
    try {
      document = loadHtml(request.html)
    } catch (err) {
      if (err instanceof FileRejected) return { id: request.id, unreadable: true }
      throw err
    }
    const found = extractLinks(document, new URL(request.url), request.robotsHeader, request.botName)
    parses.set(request.id, document)
    return {
      id: request.id,
      links: { ...found, canonical: found.canonical?.href, links: found.links.map((link) => link.href) }
    }
  }
  const document = parses.get(request.id)
  parses.delete(request.id)
  if (document === undefined) return { id: request.id, chunks: null }
  try {
    return { id: request.id, chunks: chunkPage(readContent(document, request.title, request.url)) }
  } catch (err) {
    if (err instanceof FileRejected) return { id: request.id, chunks: null }
    throw err
  }
}

parentPort!.on('message', (request: PageRequest) => {
  if (request.type === 'reset') {
    parses.clear()
    return
  }
  let reply: PageAnswer | undefined
  try {
    reply = answer(request)
  } catch (err) {
    parses.delete(request.id)
    reply = { id: request.id, error: (err as Error).message }
  }
  if (reply !== undefined) parentPort!.postMessage(reply)
})
// Loaded: the parent counts a page's time from here.
parentPort!.postMessage({ ready: true })
