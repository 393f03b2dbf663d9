import { errorCodes, limits, type ErrorCode, type KnowledgeHit, type KnowledgeKind, type Message } from '@chatsearch/contracts'
import { planSearch, toFilter, type CatalogShape, type SearchPlan } from './constraints.js'
import type { PromptItem } from './llm/prompt.js'
import type { CatalogItem } from './reference-reply.js'

/** A catalog item found for a message (the fields a reply or a prompt shows), with its retrieval score normalised to [0, 1]. */
export interface RetrievedItem extends PromptItem {
  score: number
}

export interface Retrieval {
  items: RetrievedItem[]
  /** The search that was sent, when one was. */
  plan?: SearchPlan
  /** Why the search service could not be asked (down, slow, refusing): the turn goes on without items. */
  failure?: string
  /** Words of the query the search was sent again without, none of the items holding them. */
  unmatched?: string[]
}

/** What a retrieval carries of the request it serves. */
export interface RetrievalContext {
  /** The id of the chat request, passed on to the search service (X-Request-Id) so one id follows the turn. */
  requestId?: string
  /**
   * "cheaper?" after a list: items must cost less than this (the cheapest item the shopper was shown),
   * unless the message names a price of its own.
   */
  cheaperThan?: number
}

/** A chunk of the project's knowledge found for a message (POST /knowledge/search). */
export interface KnowledgePassage {
  documentId: string
  chunkId: string
  kind: KnowledgeKind
  /** A page's title; a pair's question. */
  title: string
  section: string
  url?: string
  /** A page chunk's text; a pair's answer. */
  text: string
  score: number
}

export interface KnowledgeRetrieval {
  passages: KnowledgePassage[]
  failure?: string
}

export interface Retriever {
  retrieve (projectId: string, message: string, history: Message[], context?: RetrievalContext): Promise<Retrieval>
  /** The project's knowledge (help pages, FAQs) that best matches the text. */
  knowledge (projectId: string, text: string, context?: RetrievalContext): Promise<KnowledgeRetrieval>
  /** Catalog items by id, as the catalog holds them now (undefined for one that is gone). */
  items (projectId: string, ids: string[], context?: RetrievalContext): Promise<ItemsRetrieval>
}

export interface ItemsRetrieval {
  items: Array<CatalogItem | undefined>
  failure?: string
}

/** Nothing is retrieved: replies carry no citations (no SEARCH_URL configured). */
export const noRetriever: Retriever = {
  retrieve: async () => ({ items: [] }),
  knowledge: async () => ({ passages: [] }),
  items: async (_projectId, ids) => ({ items: ids.map(() => undefined) })
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
}

/** Facets whose values the constraint extraction matches words against. */
const NAMED_FACETS = ['brand', 'category', 'color']
/** Items one search brings back to choose from; more when the shopper asks for the cheapest or best rated of them. */
const LIMIT = 8
const ORDERED_LIMIT = 40
/** Hybrid search with an even weight: measured best over the judged queries (pnpm bench relevance). */
const SEMANTIC_RATIO = 0.5
/** Items below this retrieval score are not worth naming, whatever their rank. */
export const MIN_ITEM_CONFIDENCE = 0.3
/**
 * Times a search for a kind of product that found nothing worth naming is sent again without its
 * last word, as Meilisearch's default matching strategy does ("laptop for programming": no item says
 * "programming", many are laptops). The embedded engine wants every word; each retry costs a search.
 */
const MAX_WORD_DROPS = 2
/** Passages a knowledge search brings back: an answer takes its sentences from the best two or three. */
const KNOWLEDGE_LIMIT = 5

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

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

function itemOf (hit: Hit): RetrievedItem {
  const fields: Omit<RetrievedItem, 'id' | 'title' | 'score'> = {}
  const price = num(hit.price)
  if (price !== undefined) fields.price = price
  if (typeof hit.in_stock === 'boolean') fields.in_stock = hit.in_stock
  for (const key of ['brand', 'category', 'description'] as const) {
    const value = str(hit[key])
    if (value !== undefined) fields[key] = value
  }
  const rating = num(hit.rating)
  if (rating !== undefined) fields.rating = rating
  const score = Math.min(1, Math.max(0, num(hit._rankingScore) ?? 0))
  return { id: String(hit.id), title: str(hit.title) ?? str(hit.name) ?? String(hit.id), ...fields, score }
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
  const shapes = new Map<string, { shape: CatalogShape, expires: number }>()
  const shapeTtlMs = opts.shapeTtlMs ?? 60_000
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
    if (cached !== undefined && cached.expires > Date.now()) return cached.shape
    const settings = await call<{ filterableAttributes: string[], facetableAttributes: string[] }>(context, 'GET', '/settings')
    const facets = NAMED_FACETS.filter((f) => settings.facetableAttributes.includes(f))
    const values: Record<string, string[]> = {}
    if (facets.length > 0) {
      const browse = await call<{ facetDistribution?: Record<string, Record<string, number>> }>(context, 'POST', '/search', { search_term: '', limit: 0, facets })
      for (const facet of facets) values[facet] = Object.keys(browse.facetDistribution?.[facet] ?? {})
    }
    const shape = { filterable: settings.filterableAttributes, values }
    shapes.set(projectId, { shape, expires: Date.now() + shapeTtlMs })
    return shape
  }

  /** Plans the search of a message against the catalog's shape and runs it. */
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
    if (plan.query === '' && plan.filter === undefined) return { items: [], plan }
    const search = (query: string, type: 'hybrid' | 'keyword') => call<{ hits: Hit[] }>(context, 'POST', '/search', {
      search_term: query,
      search_type: type,
      ...(type === 'hybrid' ? { semantic_ratio: SEMANTIC_RATIO } : {}),
      filters: plan.filter ?? null,
      limit: plan.constraints.order === undefined ? LIMIT : ORDERED_LIMIT,
      show_ranking_score: true
    })
    const run = async (query: string) => {
      try {
        return await search(query, hybrid ? 'hybrid' : 'keyword')
      } catch (err) {
        if (!hybrid || !(err instanceof SearchCallError) || err.code !== 'hybrid_search_disabled') throw err
        hybrid = false
        return await search(query, 'keyword')
      }
    }
    let result = await run(plan.query)
    const words = plan.query.split(' ').filter((w) => w !== '')
    let unmatched: string[] = []
    // Only when the message names a kind of product (a category): then what is left is still that kind.
    const dropping = plan.constraints.categories.length > 0 ? MAX_WORD_DROPS : 0
    for (let drops = 1; drops <= dropping && words.length - drops >= 1; drops++) {
      if (result.hits.some((h) => (h._rankingScore ?? 0) >= MIN_ITEM_CONFIDENCE)) break
      const query = words.slice(0, words.length - drops).join(' ')
      const fewer = await run(query)
      if (fewer.hits.length > 0) {
        result = fewer
        plan = { ...plan, query }
        unmatched = words.slice(words.length - drops)
      }
    }
    return { items: result.hits.map(itemOf), plan, ...(unmatched.length === 0 ? {} : { unmatched }) }
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
        const body = { query: text.slice(0, limits.termMaxChars), limit: KNOWLEDGE_LIMIT }
        const result = await call<{ hits: KnowledgeHit[] }>(context, 'POST', '/knowledge/search', body)
        return { passages: result.hits.map(passageOf) }
      } catch (err) {
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
