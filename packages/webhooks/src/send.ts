import { Agent, request } from 'undici'
import { addressRefusal, guardedLookup, isUndiciTimeout, networkErrorCode, refuseLiteral, type AddressPolicy, type LookupFunction } from '@chatsearch/shell'
import type { AttemptOutcome } from './store.js'
import { SIGNATURE_HEADER, signatureHeader } from './signature.js'

/** What is read of an endpoint's answer (to keep the connection, and quote it in the log): no more. */
const ANSWER_BYTES = 1024
/** The refusal names the switch that allows internal addresses. */
export const PRIVATE_NETWORKS_HINT = 'set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to send webhooks to internal networks'

export interface SenderOptions {
  /** The whole attempt, connection, request and answer's headers and first bytes, within this time. */
  timeoutMs: number
  allowPrivateNetworks: boolean
  userAgent: string
  /** How host names are resolved (default dns.lookup). */
  lookup?: LookupFunction
}

/** One delivery attempt's request. */
export interface Attempt {
  url: string
  secret: string
  body: string
  event: string
  deliveryId: string
}

/**
 * POSTs signed deliveries. Host names are checked when the socket connects (guardedLookup: the
 * addresses it dials, so a name that changed its DNS since it was configured is refused too), IP
 * literals before; redirects are not followed (a 3xx is a failed attempt); the answer's body is
 * read up to 1 KiB and then cut.
 */
export class Sender {
  readonly #agent: Agent
  readonly #policy: AddressPolicy
  readonly #options: SenderOptions

  constructor (options: SenderOptions) {
    this.#options = options
    this.#policy = { allowPrivateNetworks: options.allowPrivateNetworks, allowHosts: [], hint: PRIVATE_NETWORKS_HINT }
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(this.#policy, options.lookup), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs
    })
  }

  async send (attempt: Attempt): Promise<AttemptOutcome> {
    const url = new URL(attempt.url)
    const literal = refuseLiteral(url.hostname, this.#policy)
    if (literal !== undefined) return { ok: false, statusCode: null, error: `refused: ${literal.message}` }
    const signal = AbortSignal.timeout(this.#options.timeoutMs)
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.#agent,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': this.#options.userAgent,
          [SIGNATURE_HEADER]: signatureHeader(attempt.secret, attempt.body),
          'x-chatsearch-event': attempt.event,
          'x-chatsearch-delivery': attempt.deliveryId
        },
        body: attempt.body
      })
      const answer = await readStart(response.body)
      const status = response.statusCode
      if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null }
      const redirect = status >= 300 && status < 400 ? ' (redirects are not followed: configure the final URL)' : ''
      return { ok: false, statusCode: status, error: `answered ${status}${redirect}${answer === '' ? '' : `: ${answer}`}` }
    } catch (err) {
      if (signal.aborted || isUndiciTimeout(err)) return { ok: false, statusCode: null, error: `no answer within ${this.#options.timeoutMs} ms` }
      const refusal = addressRefusal(err)
      if (refusal !== undefined) return { ok: false, statusCode: null, error: `refused: ${refusal.message}` }
      return { ok: false, statusCode: null, error: `could not connect (${networkErrorCode(err)})` }
    }
  }

  async close (): Promise<void> {
    await this.#agent.close()
  }
}

/** The first bytes of an answer, as one line of text; the rest is not downloaded. */
async function readStart (body: AsyncIterable<Buffer> & { destroy: () => void, on: (e: string, f: () => void) => void }): Promise<string> {
  const chunks: Buffer[] = []
  let length = 0
  try {
    for await (const chunk of body) {
      chunks.push(chunk)
      length += chunk.length
      if (length >= ANSWER_BYTES) break
    }
  } finally {
    body.on('error', () => {})
    body.destroy()
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200)
}
