import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { request, type Dispatcher } from 'undici'
import { addressRefusal, isUndiciTimeout, networkErrorCode, refuseLiteral, type AddressPolicy } from '@chatsearch/shell'
import { normaliseUrl, sameOrigin } from './url.js'

/** What the fetcher was asked for and where it ended. */
export type FetchOutcome = FetchedBody | FetchFailure

export interface FetchedBody {
  ok: true
  finalUrl: URL
  status: number
  /** The media type, lower case, without parameters ('' when the answer has none). */
  mediaType: string
  /** The charset parameter of Content-Type, if any. */
  charset?: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export interface FetchFailure {
  ok: false
  /** Where it failed: the URL asked for, or a redirect's target. */
  failedUrl: URL
  reason: string
  status?: number
  /** The address guard refused the host when connecting. */
  refused?: boolean
  /** No HTTP answer came (connection refused, DNS failure). */
  unreachable?: boolean
}

export interface FetchRequest {
  /** Media types accepted (lower case); any other answer is a failure naming its type. */
  accept: (mediaType: string) => boolean
  /** What the refusal says about an unaccepted type, e.g. 'not HTML'. */
  notAccepted: string
  maxBytes: number
}

export interface FetcherContext {
  origin: URL
  policy: AddressPolicy
  dispatcher: Dispatcher
  userAgent: string
  timeoutMs: number
  maxRedirects: number
  /** Runs each fetch in the origin's queue. */
  schedule: <T>(fn: () => Promise<T>) => Promise<T>
  /** robots.txt's verdict on a URL, checked again at every redirect hop. */
  allowed?: (url: URL) => boolean
  signal?: AbortSignal
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** What is read of a redirect's or an error's body (to keep the connection) before it is cut. */
const SMALL_BODY = 64 * 1024

/**
 * GETs `url` within the origin, following redirects by hand so that every hop is checked (origin,
 * literal internal addresses, robots.txt, loops); host names are checked when the socket connects,
 * by the dispatcher's lookup. The whole answer, redirects and body included, is bounded in time,
 * and the body in size while it streams.
 */
export async function fetchBounded (ctx: FetcherContext, url: URL, want: FetchRequest): Promise<FetchOutcome> {
  return await ctx.schedule(async () => {
    const timeout = AbortSignal.timeout(ctx.timeoutMs)
    const signal = ctx.signal === undefined ? timeout : AbortSignal.any([ctx.signal, timeout])
    const hop = { current: url }
    try {
      return await follow(ctx, hop, want, signal)
    } catch (err) {
      if (ctx.signal?.aborted === true) throw ctx.signal.reason
      const failedUrl = hop.current
      if (timeout.aborted || isUndiciTimeout(err)) return { ok: false, failedUrl, reason: `no complete answer within ${seconds(ctx.timeoutMs)}` }
      const refusal = addressRefusal(err)
      if (refusal !== undefined) return { ok: false, failedUrl, reason: `refused: ${refusal.message}`, refused: true }
      return { ok: false, failedUrl, reason: `could not be fetched (${networkErrorCode(err)})`, unreachable: true }
    }
  })
}

/** Follows the chain from `hop.current`, keeping it up to date so a failure can name its hop. */
async function follow (ctx: FetcherContext, hop: { current: URL }, want: FetchRequest, signal: AbortSignal): Promise<FetchOutcome> {
  const chain = [hop.current.href]
  for (;;) {
    const current = hop.current
    const response = await request(current, {
      method: 'GET',
      dispatcher: ctx.dispatcher,
      signal,
      headers: { 'user-agent': ctx.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'accept-encoding': 'gzip, deflate, br' }
    })
    const header = (name: string) => first(response.headers[name])

    if (REDIRECTS.has(response.statusCode)) {
      await response.body.dump({ limit: SMALL_BODY })
      const next = nextHop(ctx, current, header('location'), chain)
      if (typeof next === 'string') return { ok: false, failedUrl: current, reason: next, status: response.statusCode }
      chain.push(next.href)
      hop.current = next
      continue
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump({ limit: SMALL_BODY })
      return { ok: false, failedUrl: current, reason: `answered ${response.statusCode}`, status: response.statusCode }
    }

    const [mediaType = '', ...parameters] = (header('content-type') ?? '').split(';').map((part) => part.trim())
    const type = mediaType.toLowerCase()
    if (!want.accept(type)) {
      discard(response.body)
      return { ok: false, failedUrl: current, reason: `${want.notAccepted} (${type === '' ? 'no Content-Type' : type})`, status: response.statusCode }
    }
    const declared = Number(header('content-length'))
    const encoding = (header('content-encoding') ?? 'identity').toLowerCase()
    if (encoding === 'identity' && declared > want.maxBytes) {
      discard(response.body)
      return { ok: false, failedUrl: current, reason: `larger than ${size(want.maxBytes)} (Content-Length ${declared})`, status: response.statusCode }
    }
    const body = await readBounded(response.body, encoding, want.maxBytes)
    if (typeof body === 'string') return { ok: false, failedUrl: current, reason: body, status: response.statusCode }
    const charset = parameters.find((p) => p.toLowerCase().startsWith('charset='))?.slice('charset='.length).replace(/^"|"$/g, '')
    return { ok: true, finalUrl: current, status: response.statusCode, mediaType: type, ...(charset === undefined ? {} : { charset }), headers: response.headers, body }
  }
}

/** The next URL of a redirect chain, or why it is not followed. */
function nextHop (ctx: FetcherContext, from: URL, location: string | undefined, chain: string[]): URL | string {
  if (location === undefined) return 'redirect without a Location'
  const next = normaliseUrl(location, from)
  if (next === undefined) return `redirects to ${location}, not an http(s) URL`
  if (chain.length > ctx.maxRedirects) return `more than ${ctx.maxRedirects} redirects`
  if (chain.includes(next.href)) return `redirect loop: ${[...chain, next.href].join(' → ')}`
  const literal = refuseLiteral(next.hostname, ctx.policy)
  if (literal !== undefined) return `redirect to ${next.href} refused: ${literal.message}`
  if (!sameOrigin(next, ctx.origin)) return `redirects to ${next.href}, outside ${ctx.origin.origin}`
  if (ctx.allowed !== undefined && !ctx.allowed(next)) return `redirects to ${next.href}, disallowed by robots.txt`
  return next
}

/** The body, decompressed, or why it was given up once it grew past `maxBytes`. */
async function readBounded (body: Readable, encoding: string, maxBytes: number): Promise<Buffer | string> {
  const decoder = encoding === 'gzip' || encoding === 'x-gzip'
    ? createGunzip()
    : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined
  if (decoder === undefined && encoding !== 'identity') {
    discard(body)
    return `unsupported Content-Encoding ${encoding}`
  }
  const stream = decoder === undefined ? body : body.pipe(decoder)
  if (decoder !== undefined) body.once('error', (err) => decoder.destroy(err))
  const chunks: Buffer[] = []
  let length = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length
      if (length > maxBytes) return `larger than ${size(maxBytes)}`
      chunks.push(chunk)
    }
  } finally {
    // Leaving early (too large, or an error) must stop the download, not only the reading.
    if (!body.readableEnded) discard(body)
    decoder?.destroy()
  }
  return Buffer.concat(chunks)
}

/** The text of a body, in the charset its Content-Type names (UTF-8 when none, or an unknown one). */
export function decodeText (body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body)
  } catch {
    return new TextDecoder('utf-8').decode(body)
  }
}

/** Stops a download; undici then reports an abort on the stream, which nobody needs to hear. */
function discard (body: Readable): void {
  body.on('error', () => {})
  body.destroy()
}

function first (value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

export function size (bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`
}

function seconds (ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`
}
