import t from 'tap'
import { signatureHeader, signPayload, verifySignature } from '../src/index.js'

const secret = 'whsec_test'
const body = '{"id":"e1","type":"ping","data":{}}'

t.test('a signature is the hex HMAC-SHA256 of "t.body" under the secret, in t=…,v1=…', async (t) => {
  const header = signatureHeader(secret, body, 1_700_000_000)
  t.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/)
  t.equal(header.split('v1=')[1], signPayload(secret, 1_700_000_000, body))
  // Computed independently: what a receiver in any language computes.
  const { createHmac } = await import('node:crypto')
  t.equal(signPayload(secret, 1_700_000_000, body), createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex'))
})

t.test('verifySignature accepts the genuine delivery and refuses any tampering', async (t) => {
  const now = 1_700_000_000
  const header = signatureHeader(secret, body, now)
  t.equal(verifySignature({ header, body, secret, now }), true)
  t.equal(verifySignature({ header, body: Buffer.from(body), secret, now }), true, 'the raw bytes work as well')
  t.equal(verifySignature({ header, body: body.replace('ping', 'pong'), secret, now }), false, 'body changed')
  t.equal(verifySignature({ header, body, secret: 'whsec_other', now }), false, 'another secret')
  t.equal(verifySignature({ header: header.replace('t=1700000000', 't=1700000001'), body, secret, now }), false, 'timestamp changed')
  t.equal(verifySignature({ header: header.replace(/v1=./, 'v1=0'), body, secret, now }), false, 'signature changed')
  t.equal(verifySignature({ header: undefined, body, secret, now }), false, 'no header')
  t.equal(verifySignature({ header: 'garbage', body, secret, now }), false, 'not a signature')
  t.equal(verifySignature({ header: `t=${now},v1=zz`, body, secret, now }), false, 'v1 not hex')
  t.equal(verifySignature({ header: `${signatureHeader('whsec_old', body, now)},v1=${signPayload(secret, now, body)}`, body, secret, now }), true, 'one of several v1 entries matches')
})

t.test('an old (replayed) or future timestamp is refused outside the tolerance', async (t) => {
  const header = signatureHeader(secret, body, 1_700_000_000)
  t.equal(verifySignature({ header, body, secret, now: 1_700_000_000 + 300 }), true, 'within 5 minutes')
  t.equal(verifySignature({ header, body, secret, now: 1_700_000_000 + 301 }), false, 'older than 5 minutes')
  t.equal(verifySignature({ header, body, secret, now: 1_700_000_000 - 301 }), false, 'more than 5 minutes ahead')
  t.equal(verifySignature({ header, body, secret, now: 1_700_000_000 + 3600, toleranceSeconds: 7200 }), true, 'a wider tolerance')
})
