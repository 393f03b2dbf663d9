import { Readable } from 'node:stream'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { PROJECT_HEADER } from '@chatsearch/auth'
import { ApiError } from '@chatsearch/shell'

export interface UpstreamCall {
  method: string
  /** Path on the service, without its query. */
  path: string
  /** The query string to pass on as it came, without '?'. */
  query?: string
  /** A JSON value, or a body that is already text or a stream of bytes. */
  body?: unknown
  contentType?: string
  headers?: Record<string, string>
}

/**
 * An id the browser sent, as one path segment of a call to a service. "." and ".." are refused:
 * fetch() resolves them (written %2e too) as a path's dot segments, so a chat id ".." turned
 * `/admin/chats/..` into `/admin/`. No id of either service is one.
 */
export function pathSegment (id: string): string {
  if (id === '.' || id === '..') throw new ApiError('invalid_request', `"${id}" is not an id: a path's dot segment cannot name one`)
  return encodeURIComponent(id)
}

/** Response headers worth passing on to the browser. */
const RELAYED = ['content-type', 'content-disposition', 'retry-after', 'cache-control']

/**
 * The chat or search service as the console calls it (decision 15): with the service token,
 * naming the project in X-Project-Id. What the service answers is passed on as it is, status and
 * body; a service that cannot be reached (or refuses the token) is 503.
 */
export class Upstream {
  readonly name: 'chat' | 'search'
  readonly #base: string
  readonly #token: string
  readonly #timeoutMs: number
  readonly #log: FastifyBaseLogger

  constructor (name: 'chat' | 'search', base: string, token: string, timeoutMs: number, log: FastifyBaseLogger) {
    this.name = name
    this.#base = base.replace(/\/+$/, '')
    this.#token = token
    this.#timeoutMs = timeoutMs
    this.#log = log
  }

  /**
   * The service's response once its headers arrived (the body may still stream). The timeout
   * bounds the wait for the headers; `signal` (the browser going away) cancels the whole call.
   */
  async fetch (request: FastifyRequest, projectId: string, call: UpstreamCall, signal?: AbortSignal): Promise<Response> {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.#timeoutMs)
    signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
    const json = call.body !== undefined && call.contentType === undefined
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#token}`,
      [PROJECT_HEADER]: projectId,
      'x-request-id': request.id,
      ...(call.body === undefined ? {} : { 'content-type': call.contentType ?? 'application/json' }),
      ...call.headers
    }
    const url = `${this.#base}${call.path}${call.query === undefined || call.query === '' ? '' : `?${call.query}`}`
    let response: Response
    try {
      response = await fetch(url, {
        method: call.method,
        headers,
        body: json ? JSON.stringify(call.body) : call.body as RequestInit['body'],
        signal: controller.signal,
        redirect: 'manual',
        ...(call.body instanceof Readable ? { duplex: 'half' } : {})
      } as RequestInit)
    } catch (err) {
      this.#log.warn({ err, service: this.name }, `the ${this.name} service did not answer`)
      throw new ApiError('service_unavailable', `the ${this.name} service is unavailable; try again shortly`)
    } finally {
      clearTimeout(timer)
    }
    if (response.status === 401) {
      // Our own token refused: a misconfiguration, not the browser's doing.
      await response.body?.cancel()
      this.#log.error({ service: this.name }, `the ${this.name} service refused SERVICE_TOKEN; check that both services have the same one`)
      throw new ApiError('service_unavailable', `the ${this.name} service is unavailable; try again shortly`)
    }
    if (response.status >= 500) this.#log.warn({ service: this.name, status: response.status }, `the ${this.name} service answered ${response.status}`)
    return response
  }

  /** Calls the service and sends its answer on as the reply. */
  async relay (request: FastifyRequest, reply: FastifyReply, projectId: string, call: UpstreamCall) {
    const cancel = new AbortController()
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) cancel.abort() })
    const response = await this.fetch(request, projectId, call, cancel.signal)
    reply.code(response.status)
    for (const name of RELAYED) {
      const value = response.headers.get(name)
      if (value !== null) reply.header(name, value)
    }
    if (response.body === null || response.status === 204) return await reply.send()
    return await reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream))
  }

  /** The service's status and JSON body, read whole. */
  async json (request: FastifyRequest, projectId: string, call: UpstreamCall): Promise<{ status: number, body: unknown, headers: Headers }> {
    const response = await this.fetch(request, projectId, call)
    return { status: response.status, body: await response.json().catch(() => null), headers: response.headers }
  }
}

/**
 * Route options of a forward whose schema documents the service's own contract: the service
 * validates the request (the console does not, so the answer is the service's, as it would be
 * called directly), and what it answers is passed on unchanged, not re-serialised.
 */
export const forwarded = {
  validatorCompiler: () => () => true,
  serializerCompiler: () => (data: unknown) => JSON.stringify(data)
}

/** The query string of a request as it came, without '?'. */
export const queryOf = (request: FastifyRequest) => {
  const at = request.url.indexOf('?')
  return at < 0 ? '' : request.url.slice(at + 1)
}
