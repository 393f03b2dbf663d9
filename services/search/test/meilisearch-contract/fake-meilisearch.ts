/**
 * A Meilisearch server in the `meilisearch` client's own HTTP hook (`httpClient`), without a server:
 * every request the client sends is recorded and checked against Meilisearch's OpenAPI document
 * (contract.ts), then answered from a small in-memory state, and every answer is checked against the
 * same document, so that what an adapter reads from it exists in Meilisearch's answers.
 *
 * It answers successes only. The client takes whatever the hook returns as the parsed body of a
 * success and wraps whatever it throws as a network failure (MeilisearchRequestError), so an error
 * answer (404 `index_not_found`, `document_not_found`) cannot be given this way: a request that would
 * get one is recorded as a violation and fails, and a test seeds the indexes and documents the
 * adapter reads. Filters are not evaluated (a filtered read or deletion sees the whole index): the
 * checks are on what is sent and answered, not on Meilisearch's search.
 */
import type { Config } from 'meilisearch'
import { meilisearchContract, type Route } from './contract.js'

type Doc = Record<string, unknown>

export interface Captured {
  method: string
  path: string
  /** The operation's path in Meilisearch's document, e.g. /indexes/{index_uid}/search. */
  template: string | undefined
  query: Record<string, string>
  body: unknown
}

export interface IndexSeed {
  primaryKey?: string
  documents?: Doc[]
  /** The embedders setting, as GET …/settings/embedders answers it. */
  embedders?: Record<string, Doc>
  /**
   * What a search of the index finds, in order. `_rankingScore` and `_rankingScoreDetails` in them
   * are answered only when the search asks for them, as Meilisearch does.
   */
  hits?: Doc[]
}

interface FakeIndex { primaryKey: string, documents: Map<string, Doc>, embedders: Record<string, Doc>, hits: Doc[] }

type Handler = (route: Route, url: URL, body: unknown) => unknown

/** Every experimental feature GET and PATCH /experimental-features answer with, all off. */
const FEATURES = [
  'metrics', 'logsRoute', 'tasksStreamingRoute', 'editDocumentsByFunction', 'containsFilter', 'dynamicSearchRules', 'network',
  'getTaskDocumentsRoute', 'taskQueueCompactionRoute', 'compositeEmbedders', 'chatCompletions', 'multimodal', 'foreignKeys',
  'disableDocumentsFetchQueue', 'legacySearch', 'renderRoute'
]

/** A stored document as Meilisearch shows it: only `fields` if given, its vectors only when asked for. */
function shown (document: Doc, fields: unknown, vectors: unknown): Doc {
  const { _vectors: stored, ...rest } = document
  const picked = Array.isArray(fields) && !fields.includes('*') ? Object.fromEntries(Object.entries(rest).filter(([key]) => fields.includes(key))) : rest
  return vectors === true || vectors === 'true' ? { ...picked, ...(stored === undefined ? {} : { _vectors: stored }) } : picked
}

const page = (value: unknown, fallback: number) => typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : fallback

export class FakeMeilisearch {
  /** The host to give the client: nothing listens there. */
  readonly host = 'http://meilisearch.invalid:7700'
  readonly requests: Captured[] = []
  /** What Meilisearch would refuse in a request, or could not answer as the fake did; none is the goal. */
  readonly violations: string[] = []
  readonly #indexes = new Map<string, FakeIndex>()
  readonly #tasks: Doc[] = []
  readonly #features: Record<string, boolean> = Object.fromEntries(FEATURES.map((name) => [name, false]))
  #taken = 0

  /** The hook to give the client (`new Meilisearch({ host, httpClient })`). */
  readonly httpClient: NonNullable<Config['httpClient']> = async (input, init) => await this.#handle(input, init)

  /** An index as it stands before the test's requests (replaced if it exists). */
  seed (uid: string, seed: IndexSeed = {}): void {
    const primaryKey = seed.primaryKey ?? 'id'
    this.#indexes.set(uid, {
      primaryKey,
      documents: new Map((seed.documents ?? []).map((d) => [String(d[primaryKey]), structuredClone(d)])),
      embedders: structuredClone(seed.embedders ?? {}),
      hits: structuredClone(seed.hits ?? [])
    })
  }

  /** A stored document, as the index holds it now. */
  document (uid: string, id: string): Doc | undefined {
    return this.#indexes.get(uid)?.documents.get(id)
  }

  /** The requests since the last call, as `METHOD /path/template`. */
  take (): string[] {
    const taken = this.requests.slice(this.#taken)
    this.#taken = this.requests.length
    return taken.map((r) => `${r.method} ${r.template ?? r.path}`)
  }

  /** The body of the last request to `METHOD /path/template` on index `uid`. */
  lastBody (operation: string, uid?: string): unknown {
    const [method, template] = operation.split(' ')
    const found = this.requests.findLast((r) => r.method === method && r.template === template && (uid === undefined || r.path.startsWith(`/indexes/${uid}/`) || r.path === `/indexes/${uid}`))
    if (found === undefined) throw new Error(`no request ${operation}${uid === undefined ? '' : ` on ${uid}`}`)
    return found.body
  }

  async #handle (...[input, init]: Parameters<typeof fetch>): Promise<unknown> {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const method = (init?.method ?? 'GET').toUpperCase()
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const contract = meilisearchContract()
    const { route, violations } = contract.checkRequest(method, url, body)
    this.requests.push({ method, path: url.pathname, template: route?.template, query: Object.fromEntries(url.searchParams), body })
    this.violations.push(...violations.map((v) => `${method} ${url.pathname}: ${v}`))
    if (route === undefined) throw this.#refuse(method, url, 'not part of Meilisearch\'s API')
    const handler = this.#handlers[`${method} ${route.template}`]
    if (handler === undefined) throw this.#refuse(method, url, 'the fake does not answer this operation')
    // As on the wire: a JSON document, not the fake's own objects.
    const answer: unknown = JSON.parse(JSON.stringify(handler(route, url, body)))
    this.violations.push(...contract.checkResponse(route, answer).violations.map((v) => `${method} ${url.pathname}: ${v}`))
    return answer
  }

  #refuse (method: string, url: URL, why: string): Error {
    const message = `${method} ${url.pathname}: ${why}`
    this.violations.push(message)
    return new Error(`fake Meilisearch: ${message}`)
  }

  #index (route: Route, url: URL): FakeIndex {
    const index = this.#indexes.get(route.pathParams.index_uid!)
    if (index === undefined) throw this.#refuse(route.method, url, 'would answer 404 index_not_found (seed the index)')
    return index
  }

  /** A write: the index is created if need be (as Meilisearch does), the task is done at once. */
  #write (route: Route, type: string, apply: (index: FakeIndex) => void): Doc {
    const uid = route.pathParams.index_uid!
    let index = this.#indexes.get(uid)
    if (index === undefined) {
      index = { primaryKey: 'id', documents: new Map(), embedders: {}, hits: [] }
      this.#indexes.set(uid, index)
    }
    apply(index)
    return this.#enqueue(uid, type)
  }

  #enqueue (indexUid: string, type: string, error?: Doc): Doc {
    const uid = this.#tasks.length
    const at = new Date().toISOString()
    const status = error === undefined ? 'succeeded' : 'failed'
    this.#tasks.push({ uid, batchUid: uid, indexUid, status, type, canceledBy: null, details: {}, error: error ?? null, duration: 'PT0.001S', enqueuedAt: at, startedAt: at, finishedAt: at })
    return { taskUid: uid, indexUid, status: 'enqueued', type, enqueuedAt: at }
  }

  /** The values of the hits' facet that begin with the facet query (no typos: the fake checks shapes, not matching). */
  #facetSearch (index: FakeIndex, query: Doc): Doc {
    const counts = new Map<string, number>()
    const prefix = typeof query.facetQuery === 'string' ? query.facetQuery.toLowerCase() : ''
    for (const hit of index.hits) {
      const value = hit[String(query.facetName)]
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v === 'string' && v.toLowerCase().startsWith(prefix)) counts.set(v, (counts.get(v) ?? 0) + 1)
      }
    }
    return { facetHits: [...counts].map(([value, count]) => ({ value, count })), facetQuery: query.facetQuery ?? null, processingTimeMs: 1 }
  }

  #search (index: FakeIndex, query: Doc): Doc {
    const limit = page(query.limit, 20)
    const offset = page(query.offset, 0)
    const hits = index.hits.slice(offset, offset + limit).map((hit) => {
      const { _rankingScore: score, _rankingScoreDetails: details, ...fields } = hit
      return {
        ...shown(fields, query.attributesToRetrieve, query.retrieveVectors),
        ...(query.showRankingScore === true ? { _rankingScore: score ?? 1 } : {}),
        ...(query.showRankingScoreDetails === true ? { _rankingScoreDetails: details ?? {} } : {})
      }
    })
    const answer: Doc = { hits, query: query.q ?? '', processingTimeMs: 1, limit, offset, estimatedTotalHits: index.hits.length }
    if (Array.isArray(query.facets)) {
      answer.facetDistribution = Object.fromEntries(query.facets.map((facet: string) => {
        const counts: Record<string, number> = {}
        for (const hit of index.hits) {
          for (const value of [hit[facet]].flat()) if (typeof value === 'string' || typeof value === 'number') counts[String(value)] = (counts[String(value)] ?? 0) + 1
        }
        return [facet, counts]
      }))
    }
    if (query.hybrid !== undefined && query.hybrid !== null) answer.semanticHitCount = 0
    return answer
  }

  readonly #handlers: Record<string, Handler> = {
    'GET /health': () => ({ status: 'available' }),
    'PATCH /experimental-features': (_route, _url, body) => {
      Object.assign(this.#features, body)
      return this.#features
    },
    'GET /tasks/{task_id}': (route, url) => {
      const task = this.#tasks[Number(route.pathParams.task_id)]
      if (task === undefined) throw this.#refuse(route.method, url, 'would answer 404 task_not_found')
      return task
    },
    'POST /indexes': (_route, _url, body) => {
      const { uid, primaryKey } = body as { uid: string, primaryKey?: string }
      if (this.#indexes.has(uid)) {
        return this.#enqueue(uid, 'indexCreation', { message: `Index \`${uid}\` already exists.`, code: 'index_already_exists', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_already_exists' })
      }
      this.#indexes.set(uid, { primaryKey: primaryKey ?? 'id', documents: new Map(), embedders: {}, hits: [] })
      return this.#enqueue(uid, 'indexCreation')
    },
    'GET /indexes/{index_uid}/stats': (route, url) => ({
      numberOfDocuments: this.#index(route, url).documents.size,
      indexSize: 0,
      usedIndexSize: 0,
      rawDocumentDbSize: 0,
      avgDocumentSize: 0,
      isIndexing: false,
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: {}
    }),
    'PATCH /indexes/{index_uid}/settings': (route, _url, body) => this.#write(route, 'settingsUpdate', (index) => {
      const { embedders } = body as { embedders?: Record<string, Doc | null> }
      if (embedders !== undefined) this.#patchEmbedders(index, embedders)
    }),
    'GET /indexes/{index_uid}/settings/embedders': (route, url) => this.#index(route, url).embedders,
    'PATCH /indexes/{index_uid}/settings/embedders': (route, _url, body) =>
      this.#write(route, 'settingsUpdate', (index) => this.#patchEmbedders(index, body as Record<string, Doc | null>)),
    'DELETE /indexes/{index_uid}/settings/embedders': (route) => this.#write(route, 'settingsUpdate', (index) => { index.embedders = {} }),
    'POST /indexes/{index_uid}/documents': (route, _url, body) => this.#write(route, 'documentAdditionOrUpdate', (index) => {
      for (const document of body as Doc[]) index.documents.set(String(document[index.primaryKey]), document)
    }),
    'GET /indexes/{index_uid}/documents/{document_id}': (route, url) => {
      const document = this.#index(route, url).documents.get(route.pathParams.document_id!)
      if (document === undefined) throw this.#refuse(route.method, url, 'would answer 404 document_not_found (seed the document)')
      return shown(document, url.searchParams.get('fields')?.split(','), url.searchParams.get('retrieveVectors'))
    },
    'DELETE /indexes/{index_uid}/documents/{document_id}': (route) =>
      this.#write(route, 'documentDeletion', (index) => { index.documents.delete(route.pathParams.document_id!) }),
    'GET /indexes/{index_uid}/documents': (route, url) => {
      const ids = url.searchParams.get('ids')?.split(',')
      const index = this.#index(route, url)
      const all = [...index.documents.values()].filter((d) => ids === undefined || ids.includes(String(d[index.primaryKey])))
      const query = Object.fromEntries(url.searchParams)
      return this.#page(all, { ...query, fields: query.fields?.split(',') })
    },
    'POST /indexes/{index_uid}/documents/fetch': (route, url, body) => {
      const ids = (body as Doc).ids as string[] | null | undefined
      const index = this.#index(route, url)
      const all = [...index.documents.values()].filter((d) => ids === undefined || ids === null || ids.includes(String(d[index.primaryKey])))
      return this.#page(all, body as Doc)
    },
    'POST /indexes/{index_uid}/documents/delete': (route) => this.#write(route, 'documentDeletion', () => {}),
    'POST /indexes/{index_uid}/documents/delete-batch': (route, _url, body) =>
      this.#write(route, 'documentDeletion', (index) => { for (const id of body as string[]) index.documents.delete(id) }),
    'POST /indexes/{index_uid}/search': (route, url, body) => this.#search(this.#index(route, url), body as Doc),
    'POST /indexes/{index_uid}/facet-search': (route, url, body) => this.#facetSearch(this.#index(route, url), body as Doc)
  }

  #page (all: Doc[], query: Doc): Doc {
    const limit = page(query.limit, 20)
    const offset = page(query.offset, 0)
    return { results: all.slice(offset, offset + limit).map((d) => shown(d, query.fields, query.retrieveVectors)), offset, limit, total: all.length }
  }

  #patchEmbedders (index: FakeIndex, embedders: Record<string, Doc | null>) {
    for (const [name, settings] of Object.entries(embedders)) {
      if (settings === null) delete index.embedders[name]
      else index.embedders[name] = { ...index.embedders[name], ...settings }
    }
  }
}
