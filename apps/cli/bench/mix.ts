// The soak's requests: a weighted mix over the public API of the chat and search services, with
// the state shoppers build up (their chats) and the catalog items the soak adds, changes and
// removes, kept between 10 and 60 so that the catalog does not grow without bound.
import { pick, type Item, type Random, type Texts } from './texts.js'

/** Share of each kind of request, in percent. */
export const WEIGHTS = {
  turn: 11,
  streamedTurn: 3,
  readConversation: 12,
  latestConsumerChatId: 9,
  listAllProjectConsumerChats: 8,
  listAllProjectChats: 1,
  search: 20,
  hybridSearch: 5,
  autocomplete: 18,
  knowledgeSearch: 8,
  catalogWrite: 2,
  getDocument: 2,
  listKnowledge: 1
} as const
type Kind = keyof typeof WEIGHTS

/** A turn continues the shopper's latest chat this often; otherwise it starts a new one. */
const CONTINUE_CHAT = 0.75
/** Share of non-streamed turns sent with an Idempotency-Key (catalog writes always are). */
const KEYED_TURNS = 0.25
const OWN_ITEMS = { min: 10, max: 60 }
const REQUEST_TIMEOUT_MS = 60_000

/** One request's endpoint and, when it failed, why: its status code or what went wrong. */
export interface Outcome { endpoint: string, error?: string }

export interface Target { chatUrl: string, searchUrl: string, chatKey: string, searchKey: string }

/** What every client shares: the shoppers' chats and the soak's own catalog items. */
export class World {
  /** Shopper index → the id of their latest chat. */
  readonly latest = new Map<number, string>()
  readonly chats: string[] = []
  readonly ownItems: string[] = []
  /** Own items a request is changing or removing: no other request picks them meanwhile. */
  readonly busy = new Set<string>()
  ownItemsMade = 0
  keysMade = 0

  /** `shoppers` gives the size of the population at the moment (it grows to a bound). */
  constructor (readonly shoppers: () => number) {}
}

type Body = Record<string, unknown> | Item[]
type Answer = { status: number, text: string } | { error: string }

async function send (url: string, method: string, headers: Record<string, string>, body?: Body): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    })
    return { status: res.status, text: await res.text() }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } }
    return { error: e.name === 'TimeoutError' ? 'timeout' : `network ${e.cause?.code ?? e.message}` }
  }
}

const failed = (answer: Answer): string | undefined =>
  'error' in answer ? answer.error : answer.status < 200 || answer.status > 299 ? String(answer.status) : undefined

/** The chat id of a turn's answer: the JSON body, or the `done` event of a stream. */
function chatIdOf (text: string, streamed: boolean): string | undefined {
  try {
    if (!streamed) return (JSON.parse(text) as { chat_id?: string }).chat_id
    const done = /(?:^|\n)event: done\ndata: (.*)\n/.exec(text)?.[1]
    return done === undefined ? undefined : (JSON.parse(done) as { chat_id?: string }).chat_id
  } catch {
    return undefined
  }
}

export class Mix {
  readonly #kinds: Kind[]
  readonly #chat: Record<string, string>
  readonly #search: Record<string, string>

  constructor (private readonly target: Target, private readonly texts: Texts, private readonly facetable: string[],
    private readonly world: World, private readonly runTag: string) {
    this.#kinds = Object.entries(WEIGHTS).flatMap(([kind, weight]) => Array<Kind>(weight).fill(kind as Kind))
    this.#chat = { authorization: `Bearer ${target.chatKey}` }
    this.#search = { authorization: `Bearer ${target.searchKey}` }
  }

  /** One request of a kind drawn by weight. */
  next (r: Random): Promise<Outcome> {
    return this.run(pick(r, this.#kinds), r)
  }

  run (kind: Kind, r: Random): Promise<Outcome> {
    switch (kind) {
      case 'turn': return this.#turn(r, false)
      case 'streamedTurn': return this.#turn(r, true)
      case 'readConversation': return this.#readConversation(r)
      case 'latestConsumerChatId': return this.#chatGet('/latestConsumerChatId', `consumer_id=${this.#shopper(r).id}`)
      case 'listAllProjectConsumerChats': return this.#chatGet('/listAllProjectConsumerChats', `consumer_id=${this.#shopper(r).id}`)
      case 'listAllProjectChats': return this.#chatGet('/listAllProjectChats')
      case 'search': return this.#searchPost('POST /search (keyword)', '/search', {
        search_term: this.texts.searchTerm(r),
        filters: this.texts.filter(r),
        facets: this.#facets(r),
        limit: pick(r, [5, 10, 20]),
        ...(r() < 0.2 ? { offset: 10 } : {}),
        ...(r() < 0.5 ? { consumer_id: this.#shopper(r).id } : {})
      })
      case 'hybridSearch': return this.#searchPost('POST /search (hybrid)', '/search', {
        search_term: this.texts.question(r),
        search_type: 'hybrid',
        ...(r() < 0.5 ? { semantic_ratio: pick(r, [0.5, 0.7, 0.9]) } : {}),
        ...(r() < 0.3 ? { filters: this.texts.filter(r) } : {}),
        ...(r() < 0.5 ? { facets: this.#facets(r) } : {}),
        limit: 10
      })
      case 'autocomplete': return this.#searchPost('POST /autocomplete', '/autocomplete', {
        autocomplete_term: this.texts.partialTerm(r),
        limit: pick(r, [5, 10]),
        ...(r() < 0.5 ? { consumer_id: this.#shopper(r).id } : {})
      })
      case 'knowledgeSearch': return this.#searchPost('POST /knowledge/search', '/knowledge/search', {
        query: this.texts.knowledgeQuery(r),
        limit: pick(r, [3, 5]),
        ...(r() < 0.3 ? { search_type: 'keyword' } : {})
      })
      case 'catalogWrite': return this.#catalogWrite(r)
      case 'getDocument': return this.#searchGet('GET /documents/:id', `/documents/${encodeURIComponent(this.texts.item(r).id)}`)
      case 'listKnowledge': return this.#searchGet('GET /knowledge/documents', '/knowledge/documents')
    }
  }

  #shopper (r: Random) {
    const index = Math.floor(r() * this.world.shoppers())
    return { index, id: `shopper-${index}` }
  }

  #facets (r: Random): string[] {
    const shuffled = [...this.facetable].sort(() => r() - 0.5)
    return shuffled.slice(0, 1 + Math.floor(r() * Math.min(4, shuffled.length)))
  }

  #key (): string {
    return `soak-${this.runTag}-${++this.world.keysMade}`
  }

  async #turn (r: Random, streamed: boolean): Promise<Outcome> {
    const endpoint = streamed ? 'POST /newUserMessage (stream)' : 'POST /newUserMessage'
    const shopper = this.#shopper(r)
    const latest = this.world.latest.get(shopper.index)
    const continuing = latest !== undefined && r() < CONTINUE_CHAT
    const body = { user_message: this.texts.message(r), consumer_id: shopper.id, ...(continuing ? { chat_id: latest } : {}) }
    const headers = {
      ...this.#chat,
      accept: streamed ? 'text/event-stream' : 'application/json',
      ...(!streamed && r() < KEYED_TURNS ? { 'idempotency-key': this.#key() } : {})
    }
    const answer = await send(`${this.target.chatUrl}/newUserMessage`, 'POST', headers, body)
    const error = failed(answer)
    if (error !== undefined || 'error' in answer) return { endpoint, error: error ?? 'network' }
    const chatId = chatIdOf(answer.text, streamed)
    if (chatId === undefined) return { endpoint, error: streamed && answer.text.includes('event: error') ? 'error event' : 'no chat_id' }
    if (!continuing) this.world.chats.push(chatId)
    this.world.latest.set(shopper.index, chatId)
    return { endpoint }
  }

  #readConversation (r: Random): Promise<Outcome> {
    if (this.world.chats.length === 0) return this.run('latestConsumerChatId', r)
    return this.#chatGet('/readConversation', `chat_id=${encodeURIComponent(pick(r, this.world.chats))}`)
  }

  async #chatGet (path: string, query?: string): Promise<Outcome> {
    const answer = await send(`${this.target.chatUrl}${path}${query === undefined ? '' : `?${query}`}`, 'GET', this.#chat)
    return { endpoint: `GET ${path}`, ...withError(failed(answer)) }
  }

  async #searchGet (endpoint: string, path: string): Promise<Outcome> {
    return { endpoint, ...withError(failed(await send(`${this.target.searchUrl}${path}`, 'GET', this.#search))) }
  }

  async #searchPost (endpoint: string, path: string, body: Body, headers: Record<string, string> = {}): Promise<Outcome> {
    return { endpoint, ...withError(failed(await send(`${this.target.searchUrl}${path}`, 'POST', { ...this.#search, ...headers }, body))) }
  }

  /** Adds 1–3 items, changes 1–2 or removes one of the soak's own items, each with an Idempotency-Key. */
  async #catalogWrite (r: Random): Promise<Outcome> {
    const world = this.world
    const free = world.ownItems.filter((id) => !world.busy.has(id))
    const draw = r()
    let action = world.ownItems.length < OWN_ITEMS.min ? 'add' : world.ownItems.length >= OWN_ITEMS.max ? 'remove' : draw < 0.4 ? 'add' : draw < 0.7 ? 'change' : 'remove'
    if (action !== 'add' && free.length === 0) action = 'add'
    const keyed = { 'idempotency-key': this.#key() }

    if (action === 'remove') {
      const id = pick(r, free)
      world.ownItems.splice(world.ownItems.indexOf(id), 1)
      const answer = await send(`${this.target.searchUrl}/documents/${id}`, 'DELETE', { ...this.#search, ...keyed })
      return { endpoint: 'DELETE /documents/:id', ...withError(failed(answer)) }
    }
    if (action === 'change') {
      const ids = [...new Set([pick(r, free), pick(r, free)])]
      for (const id of ids) world.busy.add(id)
      try {
        return await this.#searchPost('POST /documents', '/documents', ids.map((id) => this.texts.newItem(r, id)), keyed)
      } finally {
        for (const id of ids) world.busy.delete(id)
      }
    }
    const items = Array.from({ length: 1 + Math.floor(r() * 3) }, () => this.texts.newItem(r, `soak-${this.runTag}-${++world.ownItemsMade}`))
    const outcome = await this.#searchPost('POST /documents', '/documents', items, keyed)
    if (outcome.error === undefined) world.ownItems.push(...items.map((i) => i.id))
    return outcome
  }
}

const withError = (error: string | undefined) => error === undefined ? {} : { error }
