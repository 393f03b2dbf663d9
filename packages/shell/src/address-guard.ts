import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns'
import ipaddr from 'ipaddr.js'

/** dns.lookup's shape, as net.connect calls it (one address, or all of them with `all: true`). */
export type LookupFunction = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void
) => void

/**
 * Why an address is refused, or undefined when it is a public unicast address. Only `unicast` (in
 * ipaddr.js's classification) passes: loopback, private (RFC 1918), link-local, unique-local, CGNAT,
 * 0.0.0.0/8, multicast, broadcast, documentation and reserved ranges are all refused. IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry, and so are NAT64 (64:ff9b::/96) and 6to4
 * addresses, which reach an IPv4 address through a gateway.
 */
export function internalRange (ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return 'not an IP address'
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') {
    const range = address.range()
    return range === 'unicast' ? undefined : range
  }
  const v6 = address as ipaddr.IPv6
  const range = v6.range()
  const embedded = embeddedIPv4(v6, range)
  if (embedded !== undefined) {
    const inner = internalRange(embedded)
    return inner === undefined ? undefined : `${range} of ${inner}`
  }
  return range === 'unicast' ? undefined : range
}

/** Whether `ip` may be connected to when private networks are not allowed. */
export function isPublicAddress (ip: string): boolean {
  return internalRange(ip) === undefined
}

/** The IPv4 address a NAT64 or 6to4 address leads to. */
function embeddedIPv4 (address: ipaddr.IPv6, range: string): string | undefined {
  const bytes = address.toByteArray()
  if (range === 'rfc6052' && address.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return bytes.slice(12, 16).join('.')
  if (range === '6to4') return bytes.slice(2, 6).join('.')
  return undefined
}

/** The error a refused address raises, recognised by its code wherever a fetch fails with it. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED'
  constructor (readonly host: string, readonly address: string, readonly range: string, hint?: string) {
    super(`${host === address ? address : `${host} resolves to ${address}`}, an internal address (${range})${hint === undefined ? '' : `; ${hint}`}`)
    this.name = 'AddressRefusedError'
  }
}

/** The AddressRefusedError in an error's cause chain (undici may wrap the connector's error). */
export function addressRefusal (err: unknown): AddressRefusedError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof AddressRefusedError) return e
  }
  return undefined
}

/**
 * Where outgoing requests of the service may go: the crawler's (spec/knowledge.md) and the
 * webhooks' (decision 18) follow the same rules, each with its own switch for internal networks.
 */
export interface AddressPolicy {
  allowPrivateNetworks: boolean
  /** Host names trusted whatever they resolve to (tests and local setups). */
  allowHosts: readonly string[]
  /** What a refusal adds to say how to allow internal addresses (the switch of its caller). */
  hint?: string
}

/** The refusal for a host written as an IP address, which net.connect dials without any lookup. */
export function refuseLiteral (hostname: string, policy: AddressPolicy): AddressRefusedError | undefined {
  const ip = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  if (policy.allowPrivateNetworks || policy.allowHosts.includes(hostname) || !ipaddr.isValid(ip)) return undefined
  const range = internalRange(ip)
  return range === undefined ? undefined : new AddressRefusedError(ip, ip, range, policy.hint)
}

/**
 * A lookup for net.connect that refuses a host when any of its addresses is internal. It runs when
 * the socket connects, on the very addresses it will dial, so a name that resolves to a public
 * address when checked and to an internal one when used (DNS rebinding) is still refused.
 */
export function guardedLookup (policy: AddressPolicy, lookup: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, found) => {
      if (err !== null) return callback(err, '')
      const addresses = found as LookupAddress[]
      if (!policy.allowPrivateNetworks && !policy.allowHosts.includes(hostname)) {
        for (const { address } of addresses) {
          const range = internalRange(address)
          if (range !== undefined) return callback(new AddressRefusedError(hostname, address, range, policy.hint) as NodeJS.ErrnoException, '')
        }
      }
      if (options.all === true) return callback(null, addresses)
      const first = addresses[0]
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '')
      callback(null, first.address, first.family)
    })
  }
}
