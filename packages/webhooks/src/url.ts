import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { ApiError, internalRange, refuseLiteral, type LookupFunction } from '@chatsearch/shell'
import { PRIVATE_NETWORKS_HINT } from './send.js'

/**
 * Refuses a webhook URL at configuration time (400 invalid_webhook_url): not http(s), with a user
 * or password in it, or on an internal address, written as one or resolved to one (any of the name's
 * addresses), unless private networks are allowed. A name that does not resolve now is accepted: its
 * deliveries fail and say so in the log. Each delivery checks the addresses again (send.ts).
 */
export async function checkWebhookUrl (text: string, allowPrivateNetworks: boolean, lookup: LookupFunction = dnsLookup as LookupFunction): Promise<string> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ApiError('invalid_webhook_url', 'url must be an absolute http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiError('invalid_webhook_url', `url must be http(s), not ${url.protocol.slice(0, -1)}`)
  if (url.username !== '' || url.password !== '') throw new ApiError('invalid_webhook_url', 'url must not carry a user name or password: check the signature instead')
  if (allowPrivateNetworks) return url.href
  const policy = { allowPrivateNetworks, allowHosts: [], hint: PRIVATE_NETWORKS_HINT }
  const literal = refuseLiteral(url.hostname, policy)
  if (literal !== undefined) throw new ApiError('invalid_webhook_url', `url is refused: ${literal.message}`)
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    lookup(url.hostname, { all: true }, (err, found) => { resolve(err === null ? found as LookupAddress[] : []) })
  })
  for (const { address } of addresses) {
    const range = internalRange(address)
    if (range !== undefined) throw new ApiError('invalid_webhook_url', `url is refused: ${url.hostname} resolves to ${address}, an internal address (${range}); ${PRIVATE_NETWORKS_HINT}`)
  }
  return url.href
}
