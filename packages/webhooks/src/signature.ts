import { createHmac, timingSafeEqual } from 'node:crypto'

/** The header each delivery is signed in (decision 18). */
export const SIGNATURE_HEADER = 'x-chatsearch-signature'
/** How old a signature verifySignature accepts by default: five minutes, as Stripe's libraries do. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** The hex HMAC-SHA256 of `<timestamp>.<body>` under the endpoint's secret. */
export function signPayload (secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}

/** The X-Chatsearch-Signature value of a body sent at `timestamp` (Unix seconds): `t=<timestamp>,v1=<hex>`. */
export function signatureHeader (secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`
}

export interface VerifyOptions {
  /** The X-Chatsearch-Signature header as received. */
  header: string | undefined
  /** The raw body, exactly as received (not parsed and serialised again). */
  body: string | Buffer
  secret: string
  /** How old the timestamp may be, either way, in seconds (default 300); 0 turns the check off. */
  toleranceSeconds?: number
  /** Now, in Unix seconds (tests). */
  now?: number
}

/**
 * Whether a delivery is genuine: its header holds a `v1` signature of `t.body` under the secret,
 * compared in constant time, and `t` is within the tolerance of now (a replayed old delivery fails).
 * Several `v1` entries are accepted (a receiver may be sent one per secret during a rotation).
 */
export function verifySignature (options: VerifyOptions): boolean {
  const { header, secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = options
  if (header === undefined) return false
  const parts = header.split(',').map((part) => part.trim().split('='))
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1])
  if (!Number.isSafeInteger(timestamp)) return false
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (toleranceSeconds > 0 && Math.abs(now - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(signPayload(secret, timestamp, options.body), 'hex')
  return parts.some(([key, value]) => {
    if (key !== 'v1' || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false
    return timingSafeEqual(Buffer.from(value, 'hex'), expected)
  })
}
