// The chat API as the widget calls it: the publishable key, this browser's consumer token (or the
// shop's verified customer), and replies streamed as server-sent events over fetch.
import type { Citation, Message, NewUserMessageResponse, Rating } from '@chatsearch/contracts'
import type { WidgetConfig } from './config.js'
import { eventsOf } from './sse.js'

/** Why a call failed, as the widget tells the shopper. */
export type Failure = 'not_allowed' | 'unavailable' | 'too_many' | 'chat_gone' | 'failed'

export class WidgetError extends Error {
  constructor (readonly failure: Failure, readonly code?: string) {
    super(code ?? failure)
  }
}

export interface Reply { text: string, chatId: string, citations: Citation[], handoff: boolean, consumerToken?: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | undefined => typeof v === 'string' ? v : undefined

/** Citations as received, keeping only well-formed ones. */
function citationsOf (v: unknown): Citation[] {
  if (!Array.isArray(v)) return []
  return v.filter(isObject).flatMap((c): Citation[] => {
    const source = c.source
    if (source !== 'catalog' && source !== 'knowledge' && source !== 'faq') return []
    const reference = str(c.reference) ?? ''
    const title = str(c.title)
    const url = str(c.url)
    return [{ source, reference, confidence: typeof c.confidence === 'number' ? c.confidence : 0, ...(title === undefined ? {} : { title }), ...(url === undefined ? {} : { url }) }]
  })
}

function replyOf (body: unknown): Reply {
  const b = (isObject(body) ? body : {}) as Partial<Record<keyof NewUserMessageResponse, unknown>>
  const text = str(b.assistant_response)
  const chatId = str(b.chat_id)
  if (text === undefined || chatId === undefined) throw new WidgetError('failed')
  const token = str(b.consumer_token)
  return { text, chatId, citations: citationsOf(b.citations), handoff: b.handoff === true, ...(token === undefined ? {} : { consumerToken: token }) }
}

/** One message of readConversation, as the widget shows it. */
export interface Shown { id: string, role: 'user' | 'assistant' | 'team', text: string, citations: Citation[], teamMember?: string }

function shownOf (m: unknown): Shown[] {
  if (!isObject(m)) return []
  const { msg_id: id, role, content, author } = m as Partial<Record<keyof Message, unknown>>
  if (typeof id !== 'string' || typeof content !== 'string' || (role !== 'user' && role !== 'assistant')) return []
  const human = isObject(author) && author.kind === 'human'
  const username = human ? str(author.username) : undefined
  return [{ id, role: role === 'user' ? 'user' : human ? 'team' : 'assistant', text: content, citations: citationsOf((m as Record<string, unknown>).citations), ...(username === undefined ? {} : { teamMember: username }) }]
}

function failureOf (status: number, code: string | undefined): Failure {
  if (code === 'origin_not_allowed' || status === 401 || status === 403) return 'not_allowed'
  if (status === 429) return 'too_many'
  if (code === 'chat_not_found') return 'chat_gone'
  if (status >= 500) return 'unavailable'
  return 'failed'
}

async function errorOf (res: Response): Promise<WidgetError> {
  let code: string | undefined
  try {
    const body: unknown = await res.json()
    code = isObject(body) ? str(body.code) : undefined
  } catch {}
  return new WidgetError(failureOf(res.status, code), code)
}

export interface Stream { onDelta: (text: string) => void, onReset: () => void, signal?: AbortSignal }

export class Client {
  constructor (private readonly config: WidgetConfig, private readonly token: () => string | undefined) {}

  private headers (json: boolean): Record<string, string> {
    const h: Record<string, string> = { authorization: `Bearer ${this.config.key}` }
    if (json) h['content-type'] = 'application/json'
    const identity = this.config.identity
    if (identity !== undefined) {
      h['x-consumer-id'] = identity.consumerId
      h['x-consumer-hmac'] = identity.hmac
    } else {
      const token = this.token()
      if (token !== undefined) h['x-consumer-token'] = token
    }
    return h
  }

  private async fetch (path: string, init: RequestInit): Promise<Response> {
    let res: Response
    try {
      res = await fetch(this.config.api + path, { ...init, mode: 'cors', credentials: 'omit' })
    } catch (err) {
      if (init.signal?.aborted === true) throw err
      // A refused origin fails the CORS preflight, which a page sees only as a network error, like a
      // service that is down: the shopper is told the chat is not available on this page.
      throw new WidgetError('unavailable')
    }
    if (!res.ok) throw await errorOf(res)
    return res
  }

  /** Sends a message and streams the reply; resolves with the reply once the turn is stored. */
  async send (message: string, chatId: string | undefined, stream: Stream): Promise<Reply> {
    const res = await this.fetch('/newUserMessage', {
      method: 'POST',
      headers: { ...this.headers(true), accept: 'text/event-stream' },
      body: JSON.stringify({ user_message: message, ...(chatId === undefined ? {} : { chat_id: chatId }) }),
      ...(stream.signal === undefined ? {} : { signal: stream.signal })
    })
    if (!/event-stream/.test(res.headers.get('content-type') ?? '') || res.body === null) return replyOf(await res.json())
    for await (const { event, data } of eventsOf(res.body)) {
      let body: unknown
      try { body = JSON.parse(data) } catch { continue }
      if (event === 'delta' && isObject(body) && typeof body.text === 'string') stream.onDelta(body.text)
      else if (event === 'reset') stream.onReset()
      else if (event === 'done') return replyOf(body)
      else if (event === 'error') throw new WidgetError(failureOf(isObject(body) && typeof body.statusCode === 'number' ? body.statusCode : 500, isObject(body) ? str(body.code) : undefined))
    }
    throw new WidgetError('failed')
  }

  async read (chatId: string): Promise<Shown[]> {
    const res = await this.fetch(`/readConversation?chat_id=${encodeURIComponent(chatId)}`, { headers: this.headers(false) })
    const body: unknown = await res.json()
    return Array.isArray(body) ? body.flatMap(shownOf) : []
  }

  async rate (chatId: string, msgId: string, rating: Rating): Promise<void> {
    await this.fetch('/feedback', { method: 'POST', headers: this.headers(true), body: JSON.stringify({ chat_id: chatId, msg_id: msgId, rating }) })
  }
}
