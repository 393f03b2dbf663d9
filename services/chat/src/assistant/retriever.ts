import { LRUCache } from 'lru-cache'
import { errorCodes, limits, type ErrorCode, type KnowledgeDocument, type KnowledgeHit, type Message } from '@chatsearch/contracts'
import { planSearch, toFilter, type CatalogShape, type SearchPlan } from './constraints/index.js'
import type { CatalogItem, KnowledgePassage, Retrieval, RetrievalContext, RetrievedItem, Retriever } from './types.js'

/** Nothing is retrieved: replies carry no citations (no SEARCH_URL configured). */
export const noRetriever: Retriever = {
  retrieve: async () => ({ items: [] }),
  knowledge: async () => ({ passages: [] }),
  items: async (_projectId, ids) => ({ items: ids.map(() => undefined) }),
  page: async () => ({ passages: [] })
}

export interface SearchRetrieverOptions {
  /** Base URL of the search service, e.g. http://127.0.0.1:3002 */
  searchUrl: string
  /** The shared secret the search service accepts for any project (SERVICE_TOKEN). */
  serviceToken: string
  /** Bounds each call to the search service. */
  timeoutMs: number
  /** How long a project's catalog shape (filterable attributes, brands, categories…) is reused. */
  shapeTtlMs?: number
  /** Projects whose catalog shape is kept at most (SHAPE_CACHE_ENTRIES). */
  shapeEntries?: number
  /** Told how many catalog shapes are kept, so that /metrics can report it. */
  onShapes?: (size: () => number) => void
}

/**
 * Projects whose catalog shape is kept at most, least recently used pushed out first: a shape holds
 * up to 100 values of each named facet, and a host of many projects would otherwise keep one for
 * every project that ever had a turn.
 */
export const SHAPE_CACHE_ENTRIES = 1000

/**
 * Help pages read whole (Retriever.page) are kept a short while, up to this many characters of chunk
 * text in all: a page may be a PDF of 2 million characters, read for every turn it answers otherwise.
 */
export const PAGE_CACHE_CHARS = 20_000_000
/** How long a page read whole is reused: a page edited since is read again at the latest then, or at once when the chunk the search found has changed. */
export const PAGE_TTL_MS = 30_000

/** Facets whose values the constraint extraction matches words against. */
const NAMED_FACETS = ['brand', 'category', 'color']
/** Items each search brings back to weigh; more when the shopper asks for the cheapest or best rated of them. */
const LIMIT = 10
const ORDERED_LIMIT = 40
/** Passages a knowledge search brings back: an answer takes its sentences from the best two or three. */
const KNOWLEDGE_LIMIT = 6

/** Whom a call to the search service is for. */
interface CallContext extends RetrievalContext { projectId: string }

interface Hit { id: string, _rankingScore?: number, [field: string]: unknown }

/** A refusal of the search service, with the catalog code of its error body when it sent one. */
class SearchCallError extends Error {
  readonly status: number
  readonly code: ErrorCode | undefined
  constructor (status: number, code: ErrorCode | undefined, message: string) {
    super(message)
    this.status = status
    this.code = code
  }
}

function errorCodeOf (text: string): ErrorCode | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code
    return typeof code === 'string' && (errorCodes as string[]).includes(code) ? code as ErrorCode : undefined
  } catch {
    return undefined
  }
}

/**
 * The search service refused a filter or a facet that the catalog shape allowed: its settings have
 * changed since the shape was read (PUT /settings), so the shape is read again.
 */
const STALE_SHAPE = new Set<ErrorCode>(['invalid_filter', 'invalid_facet'])

/**
 * A text cut to the longest term the search service takes (limits.termMaxChars UTF-16 units), never
 * between the two halves of a surrogate pair: the service refuses a lone half, and an emoji falling
 * across the cut would otherwise fail the whole search.
 */
export function clipTerm (text: string): string {
  if (text.length <= limits.termMaxChars) return text
  const cut = text.slice(0, limits.termMaxChars)
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/** The fields a reply may show of a hit, and its place and scores in the searches that found it. */
function itemOf (hit: Hit): Omit<RetrievedItem, 'semantic' | 'keyword' | 'rank'> {
  const fields: Omit<RetrievedItem, 'id' | 'title' | 'semantic' | 'keyword' | 'rank'> = {}
  const price = num(hit.price)
  if (price !== undefined) fields.price = price
  if (typeof hit.in_stock === 'boolean') fields.in_stock = hit.in_stock
  for (const key of ['brand', 'category', 'description'] as const) {
    const value = str(hit[key])
    if (value !== undefined) fields[key] = value
  }
  const rating = num(hit.rating)
  if (rating !== undefined) fields.rating = rating
  if (Array.isArray(hit.tags)) fields.tags = hit.tags.filter((t): t is string => typeof t === 'string')
  return { id: String(hit.id), title: str(hit.title) ?? str(hit.name) ?? String(hit.id), ...fields }
}

const scoreOf = (hit: Hit) => Math.min(1, Math.max(0, num(hit._rankingScore) ?? 0))

/**
 * The items of both searches, each once: its cosine similarity with the message (semantic side; an
 * item the semantic search did not bring back is given a little under the lowest it did), its
 * keyword score (0 when the keywords did not find it) and its best place in either list.
 */
function mergeSearches (keyword: Hit[], semantic: Hit[]): RetrievedItem[] {
  const floor = semantic.length === 0 ? 0 : 0.9 * Math.min(...semantic.map(scoreOf))
  const items = new Map<string, RetrievedItem>()
  semantic.forEach((hit, rank) => items.set(String(hit.id), { ...itemOf(hit), semantic: scoreOf(hit), keyword: 0, rank }))
  keyword.forEach((hit, rank) => {
    const found = items.get(String(hit.id))
    if (found !== undefined) {
      found.keyword = scoreOf(hit)
      found.rank = Math.min(found.rank, rank)
    } else items.set(String(hit.id), { ...itemOf(hit), semantic: floor, keyword: scoreOf(hit), rank })
  })
  return [...items.values()]
}

/**
 * Retrieval through the search service's HTTP API, with the service credential naming the project
 * (ARCHITECTURE.md decision 11). The message and the recent turns become keywords plus a filter
 * (constraints.ts); the catalog's filterable attributes and facet values, needed for that, are
 * asked once per project and reused for `shapeTtlMs`, or until the search service refuses a filter
 * or facet they allowed (the catalog's settings changed): they are then read again and the search
 * is planned and sent once more.
 */
export function searchRetriever (opts: SearchRetrieverOptions): Retriever {
  const base = opts.searchUrl.replace(/\/+$/, '')
  const shapeTtlMs = opts.shapeTtlMs ?? 60_000
  // Expired shapes are not returned, and go when pushed out or read again.
  const shapes = new LRUCache<string, CatalogShape>({ max: opts.shapeEntries ?? SHAPE_CACHE_ENTRIES, ttl: shapeTtlMs })
  opts.onShapes?.(() => shapes.size)
  const pages = new LRUCache<string, KnowledgePassage[]>({
    maxSize: PAGE_CACHE_CHARS,
    sizeCalculation: (chunks) => Math.max(1, chunks.reduce((n, c) => n + c.text.length, 0)),
    ttl: PAGE_TTL_MS
  })
  // A search service running with EMBEDDINGS=false refuses hybrid search: keyword search then.
  let hybrid = true

  async function call<T> (context: CallContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.serviceToken}`,
        'x-project-id': context.projectId,
        ...(context.requestId === undefined ? {} : { 'x-request-id': context.requestId }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(opts.timeoutMs)
    })
    if (!response.ok) {
      const text = await response.text()
      throw new SearchCallError(response.status, errorCodeOf(text), `search service answered ${response.status} to ${method} ${path}: ${text.slice(0, 300)}`)
    }
    return await response.json() as T
  }

  async function shapeOf (context: CallContext): Promise<CatalogShape> {
    const { projectId } = context
    const cached = shapes.get(projectId)
    if (cached !== undefined) return cached
    const settings = await call<{ filterableAttributes: string[], facetableAttributes: string[] }>(context, 'GET', '/settings')
    const facets = NAMED_FACETS.filter((f) => settings.facetableAttributes.includes(f))
    const values: Record<string, string[]> = {}
    if (facets.length > 0) {
      const browse = await call<{ facetDistribution?: Record<string, Record<string, number>> }>(context, 'POST', '/search', { search_term: '', limit: 0, facets })
      for (const facet of facets) values[facet] = Object.keys(browse.facetDistribution?.[facet] ?? {})
    }
    const shape = { filterable: settings.filterableAttributes, values }
    shapes.set(projectId, shape)
    return shape
  }

  /**
   * Plans the search of a message against the catalog's shape and runs it twice at once: by keyword
   * (the planned keywords and filter) and by meaning (the message as written, or with the subject of
   * the turn it follows, and the same filter). A sentence rarely matches every word; its meaning does.
   */
  async function find (context: CallContext, message: string, history: Message[], planned: (plan: SearchPlan) => void): Promise<Retrieval> {
    const shape = await shapeOf(context)
    const turns = history.map((m) => ({ role: m.role, content: m.content }))
    let plan = planSearch(message, turns, shape)
    if (context.cheaperThan !== undefined && plan.constraints.priceMax === undefined) {
      const constraints = { ...plan.constraints, priceMax: Math.round(context.cheaperThan * 100 - 1) / 100 }
      const filter = toFilter(constraints, shape)
      plan = { query: plan.query, constraints, ...(filter === undefined ? {} : { filter }) }
    }
    planned(plan)
    const limit = plan.constraints.order === undefined ? LIMIT : ORDERED_LIMIT
    // A keyword hit's score is evidence that every planned keyword matched (evidence.ts): all of them
    // must, not only some, as the search service's default matching strategy would allow.
    const search = (query: string, type: 'hybrid' | 'keyword') => call<{ hits: Hit[] }>(context, 'POST', '/search', {
      search_term: clipTerm(query),
      search_type: type,
      ...(type === 'hybrid' ? { semantic_ratio: 1 } : { matching_strategy: 'all' }),
      filters: plan.filter ?? null,
      limit,
      show_ranking_score: true
    })
    const byMeaning = async (): Promise<Hit[]> => {
      if (!hybrid) return []
      try {
        return (await search(context.semanticText ?? message, 'hybrid')).hits
      } catch (err) {
        // A search service running with EMBEDDINGS=false refuses it: keywords alone from then on.
        if (!(err instanceof SearchCallError) || err.code !== 'hybrid_search_disabled') throw err
        hybrid = false
        return []
      }
    }
    const byKeyword = async (): Promise<Hit[]> => plan.query === '' && plan.filter === undefined ? [] : (await search(plan.query, 'keyword')).hits
    const [keyword, semantic] = await Promise.all([byKeyword(), byMeaning()])
    return { items: mergeSearches(keyword, semantic), plan }
  }

  const passageOf = (hit: KnowledgeHit): KnowledgePassage => ({
    documentId: hit.document_id,
    chunkId: hit.chunk_id,
    kind: hit.kind,
    title: hit.title,
    section: hit.section,
    ...(hit.url === null ? {} : { url: hit.url }),
    // A pair's chunk is its question, a line break, then its answer: the answer is what is quoted.
    text: hit.kind === 'faq' && hit.text.startsWith(hit.title) ? hit.text.slice(hit.title.length).trim() : hit.text,
    score: hit.score
  })

  return {
    async items (projectId, ids, retrieval = {}) {
      const context: CallContext = { ...retrieval, projectId }
      try {
        const items = await Promise.all(ids.map(async (id) => {
          try {
            return await call<CatalogItem>(context, 'GET', `/documents/${encodeURIComponent(id)}`)
          } catch (err) {
            if (err instanceof SearchCallError && err.code === 'document_not_found') return undefined
            throw err
          }
        }))
        return { items }
      } catch (err) {
        return { items: ids.map(() => undefined), failure: (err as Error).message }
      }
    },

    async knowledge (projectId, text, retrieval = {}) {
      const context: CallContext = { ...retrieval, projectId }
      try {
        // Hybrid when the search service embeds, keyword-only otherwise: its default either way.
        const body = { query: clipTerm(text), limit: KNOWLEDGE_LIMIT }
        const result = await call<{ hits: KnowledgeHit[] }>(context, 'POST', '/knowledge/search', body)
        return { passages: result.hits.map(passageOf) }
      } catch (err) {
        return { passages: [], failure: (err as Error).message }
      }
    },

    async page (projectId, documentId, retrieval = {}, found) {
      const context: CallContext = { ...retrieval, projectId }
      const key = `${projectId}\n${documentId}`
      const kept = pages.get(key)
      // A kept page whose chunk the search just found reads otherwise was edited since: read again.
      if (kept !== undefined && (found === undefined || kept.some((c) => c.chunkId === found.chunkId && c.text === found.text))) return { passages: kept }
      try {
        const doc = await call<KnowledgeDocument>(context, 'GET', `/knowledge/documents/${encodeURIComponent(documentId)}`)
        const passages = doc.chunks.map((chunk): KnowledgePassage => ({
          documentId: doc.id,
          chunkId: chunk.id,
          kind: doc.kind,
          title: doc.title,
          section: chunk.section,
          ...(chunk.url === null ? {} : { url: chunk.url }),
          text: chunk.text,
          score: 0
        }))
        pages.set(key, passages)
        return { passages }
      } catch (err) {
        if (err instanceof SearchCallError && err.code === 'document_not_found') return { passages: [] }
        return { passages: [], failure: (err as Error).message }
      }
    },

    async retrieve (projectId, message, history, retrieval = {}) {
      const context: CallContext = { ...retrieval, projectId }
      let plan: SearchPlan | undefined
      const planned = (p: SearchPlan) => { plan = p }
      try {
        try {
          return await find(context, message, history, planned)
        } catch (err) {
          if (!(err instanceof SearchCallError) || err.code === undefined || !STALE_SHAPE.has(err.code)) throw err
          shapes.delete(projectId)
          return await find(context, message, history, planned)
        }
      } catch (err) {
        return { items: [], ...(plan === undefined ? {} : { plan }), failure: (err as Error).message }
      }
    }
  }
}
