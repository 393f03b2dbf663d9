import { setTimeout as sleep } from 'node:timers/promises'

export interface ChatTurn { role: 'system' | 'user' | 'assistant', content: string }

/** A function the model may call (OpenAI's tool-calling protocol): its name, what it does, and a JSON Schema of its arguments. */
export interface ToolSpec { name: string, description: string, parameters: Record<string, unknown> }
/** A call the model asked for: `arguments` is the JSON text it wrote, to be parsed and checked by the caller. */
export interface ToolCall { id: string, name: string, arguments: string }
/** A message of a tool-calling conversation: a turn, the model's request for calls, or a call's result. */
export type ChatMessage = ChatTurn
  | { role: 'assistant', content: string | null, tool_calls: Array<{ id: string, type: 'function', function: { name: string, arguments: string } }> }
  | { role: 'tool', tool_call_id: string, content: string }

/** What the model said in one round: its text, and the calls it wants made before it goes on. */
export interface ModelResponse { text: string, toolCalls: ToolCall[] }

export interface RespondOptions {
  tools: ToolSpec[]
  signal?: AbortSignal
  /** Given: the round is streamed and its text passed on as it comes; absent: one completion. */
  onText?: (delta: string) => void
}

export interface ChatModel {
  /** Non-streaming: POST {baseUrl}/chat/completions with stream:false, returns choices[0].message.content */
  complete (messages: ChatMessage[], signal?: AbortSignal): Promise<string>
  /** Streaming: stream:true, yields content deltas as they arrive (parse SSE `data: {...}` lines, stop at `data: [DONE]`). */
  stream (messages: ChatMessage[], signal?: AbortSignal): AsyncIterable<string>
  /** One round of the tool-calling protocol: the text and the tool calls of the model's answer. */
  respond (messages: ChatMessage[], opts: RespondOptions): Promise<ModelResponse>
}

export interface OpenAiChatOptions {
  /** Base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string
  model: string
  apiKey?: string
  /**
   * `complete()`: deadline for the whole call, retries and back-off included.
   * `stream()`: deadline until the first content delta (retries included); after that, the longest
   * allowed silence between two chunks, so a long answer that keeps flowing is never cut off.
   */
  timeoutMs: number
  /** Extra attempts after the first, on 429, 5xx and network errors. */
  retries: number
  /** First back-off delay; doubles on each retry. Default 250. */
  retryBaseMs?: number
  temperature?: number
  maxTokens?: number
  /** Told the token counts of each answer whose server reports them (OpenAI's `usage`). */
  onUsage?: (usage: TokenUsage) => void
}

export interface TokenUsage { promptTokens: number, completionTokens: number }

export type LlmErrorKind = 'timeout' | 'http' | 'network' | 'protocol' | 'aborted'

export class LlmError extends Error {
  override readonly name = 'LlmError'
  readonly kind: LlmErrorKind
  /** HTTP status, or the numeric `code` of an error object sent inside a stream. */
  readonly status: number | undefined
  /** How long the server asked us to wait (Retry-After), already capped. */
  readonly retryAfterMs: number | undefined

  constructor (kind: LlmErrorKind, message: string, extra: { status?: number, retryAfterMs?: number, cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.kind = kind
    this.status = extra.status
    this.retryAfterMs = extra.retryAfterMs
  }
}

const DEFAULT_RETRY_BASE_MS = 250
/** A server asking for a minute must not hold a chat reply hostage; we give up sooner instead. */
const MAX_RETRY_AFTER_MS = 2_000
const ERROR_TEXT_LIMIT = 200

type Scrub = (text: string) => string

/**
 * A chat model behind any OpenAI-compatible `POST /chat/completions` endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp server), with a deadline, bounded retries and typed failures (`LlmError`).
 */
export function openAiChatModel (opts: OpenAiChatOptions): ChatModel {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const apiKey = opts.apiKey
  // Servers sometimes echo the key back in an error body; it must never reach a log line.
  const scrub: Scrub = apiKey === undefined || apiKey === '' ? (text) => text : (text) => text.replaceAll(apiKey, '[redacted]')
  const report = (usage: TokenUsage | undefined) => { if (usage !== undefined) opts.onUsage?.(usage) }
  // Streams ask for their token counts until the server refuses the option (older Azure OpenAI API versions do).
  let streamUsage = true

  async function post (messages: ChatMessage[], stream: boolean, signal: AbortSignal, tools?: ToolSpec[]): Promise<Response> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` })
      },
      body: JSON.stringify(requestBody(opts, messages, stream, stream && streamUsage, tools)),
      signal
    })
    if (!response.ok) throw await httpError(response, scrub)
    return response
  }

  function shouldRetry (error: LlmError, attempt: number): boolean {
    return attempt < opts.retries && isTransient(error)
  }

  async function pauseBeforeRetry (control: CallControl, attempt: number, error: LlmError): Promise<void> {
    const ms = error.retryAfterMs ?? (opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS) * 2 ** attempt
    try {
      await sleep(ms, undefined, { signal: control.signal })
    } catch (err) {
      throw control.failure(err, error)
    }
  }

  async function completion (messages: ChatMessage[], signal: AbortSignal | undefined, tools?: ToolSpec[]): Promise<Parsed> {
    const control = new CallControl(opts.timeoutMs, signal)
    control.arm()
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await post(messages, false, control.signal, tools)
          const parsed = parseCompletion(await response.text(), scrub)
          report(parsed.usage)
          return parsed
        } catch (err) {
          const error = control.failure(err)
          if (!shouldRetry(error, attempt)) throw error
          await pauseBeforeRetry(control, attempt, error)
        }
      }
    } finally {
      control.dispose()
    }
  }

  async function * streamed (messages: ChatMessage[], signal: AbortSignal | undefined, tools?: ToolSpec[]): AsyncGenerator<StreamEvent> {
    const control = new CallControl(opts.timeoutMs, signal)
    control.arm()
    try {
      for (let attempt = 0; ; attempt++) {
        let yielded = false
        // Until the first delta the call-wide deadline runs; afterwards each read gets its own idle timer.
        const beforeRead = () => { if (yielded) control.arm() }
        try {
          const response = await post(messages, true, control.signal, tools)
          for await (const event of streamEvents(response, beforeRead, scrub, report)) {
            yielded = true
            // The consumer's own pace must not count as server silence.
            control.disarm()
            yield event
          }
          return
        } catch (err) {
          const error = control.failure(err)
          if (streamUsage && refusesStreamOptions(error)) { streamUsage = false; continue }
          // Retrying after text went out would show the user the start of the answer twice.
          if (yielded || !shouldRetry(error, attempt)) throw error
          await pauseBeforeRetry(control, attempt, error)
        }
      }
    } finally {
      control.dispose()
    }
  }

  return {
    async complete (messages, signal) {
      return (await completion(messages, signal)).content
    },

    async * stream (messages, signal) {
      for await (const event of streamed(messages, signal)) if (event.text !== undefined) yield event.text
    },

    async respond (messages, { tools, signal, onText }) {
      if (onText === undefined) {
        const { content, toolCalls } = await completion(messages, signal, tools)
        return { text: content, toolCalls }
      }
      let text = ''
      const calls = new ToolCallAssembler()
      for await (const event of streamed(messages, signal, tools)) {
        if (event.text !== undefined) { text += event.text; onText(event.text) }
        for (const delta of event.toolCalls ?? []) calls.push(delta)
      }
      return { text, toolCalls: calls.done() }
    }
  }
}

function requestBody (opts: OpenAiChatOptions, messages: ChatMessage[], stream: boolean, streamUsage: boolean, tools?: ToolSpec[]) {
  return {
    model: opts.model,
    messages,
    stream,
    ...(tools === undefined || tools.length === 0
      ? {}
      : { tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })) }),
    // The token counts then come in a last chunk with no choices (a completion has them in its body).
    ...(streamUsage ? { stream_options: { include_usage: true } } : {}),
    ...(opts.temperature === undefined ? {} : { temperature: opts.temperature }),
    // `max_tokens` rather than OpenAI's newer `max_completion_tokens`: it is what Ollama, vLLM and llama.cpp read.
    ...(opts.maxTokens === undefined ? {} : { max_tokens: opts.maxTokens })
  }
}

const refusesStreamOptions = (error: LlmError) => error.kind === 'http' && error.status === 400 && error.message.includes('stream_options')

function isTransient (error: LlmError): boolean {
  if (error.kind === 'network') return true
  if (error.kind !== 'http' || error.status === undefined) return false
  return error.status === 429 || error.status >= 500
}

/**
 * One call's stop switch: the caller's signal and our own timer both abort the same controller, and we
 * remember which one did so the failure can say `aborted` or `timeout`.
 */
class CallControl {
  readonly #controller = new AbortController()
  readonly #caller: AbortSignal | undefined
  readonly #timeoutMs: number
  #timer: NodeJS.Timeout | undefined
  #reason: 'timeout' | 'aborted' | undefined
  readonly #onCallerAbort = () => this.#stop('aborted')

  constructor (timeoutMs: number, caller?: AbortSignal) {
    this.#timeoutMs = timeoutMs
    this.#caller = caller
    if (caller?.aborted === true) this.#stop('aborted')
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true })
  }

  get signal (): AbortSignal { return this.#controller.signal }

  /** (Re)start the timer; when it fires, everything in flight is aborted. */
  arm (): void {
    this.disarm()
    this.#timer = setTimeout(() => this.#stop('timeout'), this.#timeoutMs)
  }

  disarm (): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  dispose (): void {
    this.disarm()
    this.#caller?.removeEventListener('abort', this.#onCallerAbort)
  }

  /** What a thrown value means for this call; `last` is the failure we were about to retry, if any. */
  failure (err: unknown, last?: LlmError): LlmError {
    if (this.#reason === 'aborted') return new LlmError('aborted', 'chat completion aborted by the caller', { cause: err })
    if (err instanceof LlmError) return err
    if (this.#reason === 'timeout') {
      const after = last === undefined ? '' : ` (last failure: ${last.message})`
      return new LlmError('timeout', `chat completion timed out after ${this.#timeoutMs} ms${after}`, { cause: err })
    }
    return new LlmError('network', `chat endpoint did not answer: ${describe(err)}`, { cause: err })
  }

  #stop (reason: 'timeout' | 'aborted'): void {
    if (this.#reason !== undefined) return
    this.#reason = reason
    this.disarm()
    this.#controller.abort(new Error(`chat completion ${reason}`))
  }
}

/** undici hides the useful part ("connect ECONNREFUSED …") in `cause`. */
function describe (err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : ''
  return `${err.message}${cause}`
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Retry-After in seconds (the standard) or OpenAI's retry-after-ms; HTTP dates are ignored. */
function retryAfterMs (headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN)
  const seconds = Number(headers.get('retry-after') ?? Number.NaN)
  const wanted = Number.isFinite(ms) && ms >= 0 ? ms : Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined
  return wanted === undefined ? undefined : Math.min(wanted, MAX_RETRY_AFTER_MS)
}

/** The `message` of an OpenAI-style error object, if that is what we were given. */
function errorObjectMessage (value: unknown): string | undefined {
  if (!isRecord(value) || !isRecord(value.error)) return undefined
  const message = value.error.message
  return typeof message === 'string' ? message : JSON.stringify(value.error)
}

async function httpError (response: Response, scrub: Scrub): Promise<LlmError> {
  const text = await response.text().catch(() => '')
  let detail = text
  try {
    detail = errorObjectMessage(JSON.parse(text)) ?? text
  } catch {}
  const wait = retryAfterMs(response.headers)
  return new LlmError('http', `chat endpoint answered ${response.status}: ${scrub(detail.slice(0, ERROR_TEXT_LIMIT))}`, {
    status: response.status,
    ...(wait === undefined ? {} : { retryAfterMs: wait })
  })
}

function parseJson (text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new LlmError('protocol', `chat endpoint sent ${what} that is not valid JSON`)
  }
}

/** An error object where data was expected: some servers answer 200 and explain inside the body. */
function embeddedError (value: unknown, scrub: Scrub): LlmError | undefined {
  const message = errorObjectMessage(value)
  if (message === undefined || !isRecord(value) || !isRecord(value.error)) return undefined
  const code = value.error.code
  const status = typeof code === 'number' && code >= 100 && code <= 599 ? code : undefined
  return new LlmError('http', `chat endpoint reported an error: ${scrub(message.slice(0, ERROR_TEXT_LIMIT))}`, status === undefined ? {} : { status })
}

function firstChoice (value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value) || !Array.isArray(value.choices)) return undefined
  const choice: unknown = value.choices[0]
  return isRecord(choice) ? choice : undefined
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0

/** `usage` of a completion or of a stream's last chunk; undefined when absent (`null` in other chunks) or unusable. */
function usageOf (value: Record<string, unknown>): TokenUsage | undefined {
  const usage = value.usage
  if (!isRecord(usage) || !isCount(usage.prompt_tokens) || !isCount(usage.completion_tokens)) return undefined
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
}

interface Parsed { content: string, toolCalls: ToolCall[], usage: TokenUsage | undefined }

/** A piece of a streamed tool call: the first of a call carries its id and name, the rest more of its arguments. */
interface ToolCallDelta { index: number, id?: string, name?: string, arguments?: string }

/** One event of a stream: content text, and pieces of tool calls. */
interface StreamEvent { text?: string, toolCalls?: ToolCallDelta[] }

function toolCallsOf (message: Record<string, unknown>): ToolCall[] {
  if (!Array.isArray(message.tool_calls)) return []
  return message.tool_calls.map((call: unknown, i: number) => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined
    if (fn === undefined || typeof fn.name !== 'string') throw new LlmError('protocol', 'chat endpoint sent a tool call without a function name')
    return { id: isRecord(call) && typeof call.id === 'string' ? call.id : `call_${i}`, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '' }
  })
}

function parseCompletion (text: string, scrub: Scrub): Parsed {
  const body = parseJson(text, 'a completion')
  const error = embeddedError(body, scrub)
  if (error !== undefined) throw error
  const message = firstChoice(body)?.message
  const content = isRecord(message) ? message.content : undefined
  const toolCalls = isRecord(message) ? toolCallsOf(message) : []
  // A message that only calls tools has `content: null`.
  if (!isRecord(body) || (typeof content !== 'string' && toolCalls.length === 0)) throw new LlmError('protocol', 'chat endpoint sent a completion without choices[0].message.content')
  return { content: typeof content === 'string' ? content : '', toolCalls, usage: usageOf(body) }
}

/** One `chat.completion.chunk`; its content is empty for role-only, usage-only, tool-call and finish chunks. */
function parseChunk (data: string, scrub: Scrub): StreamEvent & { usage: TokenUsage | undefined } {
  const chunk = parseJson(data, 'a stream chunk')
  const error = embeddedError(chunk, scrub)
  if (error !== undefined) throw error
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) throw new LlmError('protocol', 'chat endpoint sent a stream chunk without choices')
  const delta = firstChoice(chunk)?.delta
  const content = isRecord(delta) ? delta.content : undefined
  const calls = isRecord(delta) && Array.isArray(delta.tool_calls) ? delta.tool_calls : []
  const toolCalls = calls.filter(isRecord).map((call, i): ToolCallDelta => {
    const fn = isRecord(call.function) ? call.function : {}
    return {
      index: typeof call.index === 'number' ? call.index : i,
      ...(typeof call.id === 'string' ? { id: call.id } : {}),
      ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
      ...(typeof fn.arguments === 'string' ? { arguments: fn.arguments } : {})
    }
  })
  return { ...(typeof content === 'string' && content !== '' ? { text: content } : {}), ...(toolCalls.length > 0 ? { toolCalls } : {}), usage: usageOf(chunk) }
}

/** Puts streamed tool calls together: pieces of one call share its index. */
class ToolCallAssembler {
  readonly #calls = new Map<number, { id?: string, name?: string, arguments: string }>()

  push (delta: ToolCallDelta): void {
    const call = this.#calls.get(delta.index) ?? { arguments: '' }
    if (delta.id !== undefined) call.id = delta.id
    if (delta.name !== undefined) call.name = (call.name ?? '') + delta.name
    if (delta.arguments !== undefined) call.arguments += delta.arguments
    this.#calls.set(delta.index, call)
  }

  done (): ToolCall[] {
    return [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => {
      if (call.name === undefined) throw new LlmError('protocol', 'chat endpoint streamed a tool call without a function name')
      return { id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments }
    })
  }
}

async function * streamEvents (response: Response, beforeRead: () => void, scrub: Scrub, report: (usage: TokenUsage | undefined) => void): AsyncGenerator<StreamEvent> {
  // Some servers ignore `stream: true` and answer with a plain completion; that is still an answer.
  if (response.headers.get('content-type')?.includes('application/json') === true) {
    const { content, toolCalls, usage } = parseCompletion(await response.text(), scrub)
    report(usage)
    yield {
      ...(content === '' ? {} : { text: content }),
      ...(toolCalls.length === 0 ? {} : { toolCalls: toolCalls.map((c, index) => ({ index, id: c.id, name: c.name, arguments: c.arguments })) })
    }
    return
  }
  if (response.body === null) throw new LlmError('protocol', 'chat endpoint sent an empty stream')
  for await (const data of sseData(response.body, beforeRead)) {
    if (data.trim() === '[DONE]') return
    const { usage, ...event } = parseChunk(data, scrub)
    report(usage)
    if (event.text !== undefined || event.toolCalls !== undefined) yield event
  }
  throw new LlmError('network', 'chat stream ended before [DONE]; the connection was dropped')
}

/** The `data` of each server-sent event, per the SSE spec (multi-line data joined with \n, comments skipped). */
async function * sseData (body: ReadableStream<Uint8Array>, beforeRead: () => void): AsyncGenerator<string> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const lines = new LineSplitter()
  let data: string[] = []
  try {
    for (;;) {
      beforeRead()
      const { done, value } = await reader.read()
      // An event not closed by a blank line is incomplete; the caller decides what a missing [DONE] means.
      if (done) return
      for (const line of lines.push(decoder.decode(value, { stream: true }))) {
        if (line === '') {
          if (data.length > 0) yield data.join('\n')
          data = []
          continue
        }
        const field = sseField(line)
        if (field?.name === 'data') data.push(field.value)
      }
    }
  } finally {
    // Stops the download when we leave early ([DONE], an error, or a consumer that stopped listening).
    await reader.cancel().catch(() => {})
  }
}

function sseField (line: string): { name: string, value: string } | undefined {
  if (line.startsWith(':')) return undefined // a comment, e.g. `: keep-alive`
  const colon = line.indexOf(':')
  if (colon === -1) return { name: line, value: '' }
  const value = line.slice(colon + 1)
  return { name: line.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value }
}

/** Splits decoded text into lines ending in \n, \r\n or \r, whatever chunk boundaries fall in between. */
class LineSplitter {
  #rest = ''

  push (chunk: string): string[] {
    const text = this.#rest + chunk
    // A trailing \r may be the first half of \r\n; deciding now could invent an empty line.
    const end = text.endsWith('\r') ? text.length - 1 : text.length
    const lines = text.slice(0, end).split(/\r\n|\r|\n/)
    this.#rest = (lines.pop() ?? '') + text.slice(end)
    return lines
  }
}
