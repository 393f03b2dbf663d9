import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ChatMessage } from '../../src/assistant/llm/client.js'

/** What the fake does with one request. Everything is optional; `{}` answers with the default text. */
export interface FakeReply {
  /** The assistant's answer, or a function of the messages received. */
  text?: string | ((messages: ChatMessage[]) => string)
  /**
   * Tool calls to answer with (OpenAI's protocol: `tool_calls` with `finish_reason: "tool_calls"`,
   * content null unless `text` is given too), or a function of the messages received; a function
   * returning none lets `text` answer. Streamed, each call's first chunk carries its id and name and
   * its arguments follow in pieces, as OpenAI sends them.
   */
  toolCalls?: FakeToolCall[] | ((messages: ChatMessage[]) => FakeToolCall[])
  /** Streaming: the content pieces to send; by default the text is cut into word-sized pieces like real tokens. */
  chunks?: string[]
  /** Streaming: pause before each chunk. */
  chunkDelayMs?: number
  /** Streaming: one long pause after this many content chunks (to trip an idle timeout mid-answer). */
  pauseAfter?: { chunks: number, ms: number }
  /** Wait this long before sending the status line. */
  delayMs?: number
  /** Answer with this HTTP error status and an OpenAI-style error body. */
  status?: number
  /** Fields of the error object, for `status` and `streamErrorAfter`. */
  error?: { message?: string, type?: string, code?: string | number | null }
  /** Value of the Retry-After header sent with an error status. */
  retryAfter?: string | number
  /** Value of OpenAI's retry-after-ms header sent with an error status. */
  retryAfterMs?: string | number
  /** Send a 200 whose JSON (or one stream chunk's JSON) is cut short. */
  malformed?: boolean
  /** Answer with a plain completion even when a stream was asked for, as some servers do. */
  ignoreStream?: boolean
  /** Non-streaming: send this value as the JSON body with status 200, instead of a completion. */
  body?: unknown
  /** Close the socket without answering at all. */
  hangUp?: boolean
  /** Streaming: destroy the socket after the role chunk and this many content chunks. */
  disconnectAfter?: number
  /** Streaming: after this many content chunks send `data: {"error":{...}}` and end the response. */
  streamErrorAfter?: number
  /** Streaming: end the response cleanly but without `data: [DONE]`. */
  omitDone?: boolean
  /** Streaming: line ending used in the event stream. */
  lineEnding?: '\n' | '\r\n'
  /** Streaming: send a `: keep-alive` comment before every event. */
  keepAlive?: boolean
  /**
   * Token counts to report (by default estimated from the text at 4 characters a token); `false`
   * reports none, as some servers do. A completion has them in its body; a stream sends them in a
   * last chunk with empty `choices` before [DONE], only when asked (`stream_options.include_usage`).
   */
  usage?: false | Usage
  /** Answer 400 to a request with `stream_options`, as older Azure OpenAI API versions do. */
  refuseStreamOptions?: boolean
  /** Streaming: pretty-print each chunk's JSON over several `data:` lines (valid SSE, rarely used). */
  multiLineData?: boolean
  /** Streaming: re-cut the event stream's bytes into writes of this size, so lines (and UTF-8) split anywhere. */
  fragmentBytes?: number
}

export interface Usage { prompt_tokens: number, completion_tokens: number }

export interface FakeToolCall { name: string, arguments: unknown }

export interface ChatRequestBody {
  model: string
  messages: ChatMessage[]
  stream?: boolean
  tools?: Array<{ type: 'function', function: { name: string, description: string, parameters: unknown } }>
  stream_options?: { include_usage?: boolean }
  temperature?: number
  max_tokens?: number
  [field: string]: unknown
}

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The parsed JSON body; undefined when it was not JSON. */
  body: ChatRequestBody | undefined
}

export interface FakeOpenAi {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string
  requests: ReceivedRequest[]
  /** Queue replies, used one per request in order. */
  script: (...replies: FakeReply[]) => void
  /** Decide replies once the queue is empty (the default answers with DEFAULT_REPLY). */
  handle: (handler: (request: ReceivedRequest) => FakeReply) => void
  close: () => Promise<void>
}

export const DEFAULT_REPLY = 'Hello from the fake model.'

interface TestLike { teardown: (fn: () => unknown) => void }

/** An OpenAI-compatible chat-completions server speaking the real wire format, scripted per request. */
export async function startFakeOpenAi (t?: TestLike): Promise<FakeOpenAi> {
  const requests: ReceivedRequest[] = []
  const queue: FakeReply[] = []
  let handler: (request: ReceivedRequest) => FakeReply = () => ({})

  const server = createServer((req, res) => {
    // A client that hangs up mid-answer is part of what we test; it must not crash the fake.
    serve(req, res).catch(() => res.destroy())
  })

  async function serve (req: IncomingMessage, res: ServerResponse): Promise<void> {
    const closed = new AbortController()
    res.on('close', () => closed.abort())
    const raw = await readBody(req)
    const request: ReceivedRequest = { method: req.method ?? '', path: new URL(req.url ?? '/', 'http://fake').pathname, headers: req.headers, body: parseBody(raw) }
    requests.push(request)
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      sendError(res, 404, { message: `Unknown request URL: ${request.method} ${request.path}`, type: 'invalid_request_error', code: 'unknown_url' })
      return
    }
    if (request.body === undefined) {
      sendError(res, 400, { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', code: null })
      return
    }
    const reply = queue.shift() ?? handler(request)
    if (reply.refuseStreamOptions === true && request.body.stream_options !== undefined) {
      sendError(res, 400, { message: 'Unrecognized request argument supplied: stream_options' })
      return
    }
    if (reply.delayMs !== undefined) await sleep(reply.delayMs, undefined, { signal: closed.signal })
    if (reply.hangUp === true) { res.socket?.destroy(); return }
    if (reply.status !== undefined) { sendError(res, reply.status, reply.error, retryHeaders(reply)); return }
    const calls = (typeof reply.toolCalls === 'function' ? reply.toolCalls(request.body.messages) : reply.toolCalls ?? [])
      .map((call, i) => ({ id: `call_fake${++sequence}_${i}`, name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) }))
    const text = typeof reply.text === 'function' ? reply.text(request.body.messages) : reply.text ?? (calls.length > 0 ? '' : DEFAULT_REPLY)
    if (request.body.stream === true && reply.ignoreStream !== true) await sendStream(res, request.body, reply, text, closed.signal, calls)
    else sendCompletion(res, request.body, reply, text, calls)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
    return closing
  }
  t?.teardown(close)
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => { queue.push(...replies) },
    handle: (next) => { handler = next },
    close
  }
}

async function readBody (req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const part of req) parts.push(part as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

function parseBody (raw: string): ChatRequestBody | undefined {
  try {
    const body: unknown = JSON.parse(raw)
    if (typeof body !== 'object' || body === null || !('model' in body) || !('messages' in body)) return undefined
    if (typeof body.model !== 'string' || !Array.isArray(body.messages)) return undefined
    return body as ChatRequestBody
  } catch {
    return undefined
  }
}

function retryHeaders (reply: FakeReply): Record<string, string> {
  return {
    ...(reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) }),
    ...(reply.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(reply.retryAfterMs) })
  }
}

function errorObject (status: number, error: FakeReply['error'] = {}) {
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error'
  return {
    error: {
      message: error.message ?? `The fake model failed with status ${status}.`,
      type: error.type ?? type,
      param: null,
      code: error.code ?? (status === 429 ? 'rate_limit_exceeded' : null)
    }
  }
}

function sendError (res: ServerResponse, status: number, error?: FakeReply['error'], headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(errorObject(status, error)))
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4)
const promptTokens = (body: ChatRequestBody) => body.messages.reduce((sum, m) => sum + estimateTokens(String(m.content)), 0)
let sequence = 0

function identity (body: ChatRequestBody) {
  return { id: `chatcmpl-fake${++sequence}`, created: Math.floor(Date.now() / 1000), model: body.model }
}

function usage (body: ChatRequestBody, reply: FakeReply, text: string) {
  const { prompt_tokens: prompt, completion_tokens: completion } = reply.usage === undefined || reply.usage === false
    ? { prompt_tokens: promptTokens(body), completion_tokens: estimateTokens(text) }
    : reply.usage
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

interface SentCall { id: string, name: string, arguments: string }
const wireCall = (call: SentCall) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })

function sendCompletion (res: ServerResponse, body: ChatRequestBody, reply: FakeReply, text: string, calls: SentCall[] = []): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  if (reply.malformed === true) { res.end('{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi'); return }
  if (reply.body !== undefined) { res.end(JSON.stringify(reply.body)); return }
  res.end(JSON.stringify({
    ...identity(body),
    object: 'chat.completion',
    choices: [{
      index: 0,
      message: { role: 'assistant', content: calls.length > 0 && text === '' ? null : text, refusal: null, ...(calls.length > 0 ? { tool_calls: calls.map(wireCall) } : {}) },
      logprobs: null,
      finish_reason: calls.length > 0 ? 'tool_calls' : 'stop'
    }],
    ...(reply.usage === false ? {} : { usage: usage(body, reply, text) })
  }))
}

/** Word-sized pieces with their leading space, the way tokenisers cut text. */
function splitLikeTokens (text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? []
}

type Delta = { role: 'assistant' } | { content: string } | { tool_calls: unknown[] } | Record<string, never>

async function sendStream (res: ServerResponse, body: ChatRequestBody, reply: FakeReply, text: string, closed: AbortSignal, calls: SentCall[] = []): Promise<void> {
  const id = identity(body)
  const eol = reply.lineEnding ?? '\n'
  const comment = reply.keepAlive === true ? `: keep-alive${eol}${eol}` : ''
  const event = (data: string) => `${comment}${data.split('\n').map((line) => `data: ${line}${eol}`).join('')}${eol}`
  const json = (value: unknown) => reply.multiLineData === true ? JSON.stringify(value, null, 1) : JSON.stringify(value)
  // Asked for usage, OpenAI gives every chunk `usage: null` and the counts in a last chunk of their own.
  const withUsage = body.stream_options?.include_usage === true && reply.usage !== false
  const chunk = (delta: Delta, finish: string | null) =>
    event(json({ ...id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(withUsage ? { usage: null } : {}) }))
  const pieces = reply.chunks ?? splitLikeTokens(text)

  // Everything up to where the script stops (drop, error, malformed), then how it ends.
  const events = [chunk({ role: 'assistant' }, null)]
  const stopAt = reply.disconnectAfter ?? reply.streamErrorAfter ?? pieces.length
  for (const piece of pieces.slice(0, stopAt)) events.push(chunk({ content: piece }, null))
  // Each call: its id and name first, then its arguments in pieces of a few characters.
  calls.forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null))
    for (const piece of call.arguments.match(/[^]{1,7}/g) ?? []) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null))
  })
  let ending: 'drop' | 'end' = 'end'
  if (reply.disconnectAfter !== undefined) ending = 'drop'
  else if (reply.streamErrorAfter !== undefined) events.push(event(JSON.stringify(errorObject(500, reply.error))))
  else if (reply.malformed === true) events.push(event('{"id":"chatcmpl-fake","choices":[{"delta":{"content":"oops'), event('[DONE]'))
  else {
    events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'))
    if (withUsage) events.push(event(json({ ...id, object: 'chat.completion.chunk', choices: [], usage: usage(body, reply, pieces.join('')) })))
    if (reply.omitDone !== true) events.push(event('[DONE]'))
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const writes = reply.fragmentBytes === undefined ? events : fragments(events.join(''), reply.fragmentBytes)
  for (const [i, data] of writes.entries()) {
    const pause = reply.pauseAfter !== undefined && i === reply.pauseAfter.chunks + 1 ? reply.pauseAfter.ms : 0
    const delay = pause + (reply.chunkDelayMs ?? 0)
    if (delay > 0) await sleep(delay, undefined, { signal: closed })
    // Let each fragment leave on its own rather than be merged with the next one.
    else if (reply.fragmentBytes !== undefined) await new Promise((resolve) => setImmediate(resolve))
    await write(res, data)
  }
  if (ending === 'drop') res.socket?.destroy()
  else res.end()
}

function fragments (text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, 'utf8')
  const out: Buffer[] = []
  for (let start = 0; start < bytes.length; start += size) out.push(bytes.subarray(start, start + size))
  return out
}

function write (res: ServerResponse, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.destroyed) { reject(new Error('client went away')); return }
    res.write(data, (err) => { if (err) reject(err); else resolve() })
  })
}
