import { createHash, randomInt } from 'node:crypto'

/** `widget` is the publishable key of decision 18: the chat service takes it, from its origins only, on a few routes. */
export const services = ['chat', 'search', 'widget'] as const
export type Service = typeof services[number]
/** The services that authenticate requests; a widget key is checked by the chat service. */
export type ApiService = Exclude<Service, 'widget'>

/** The prefix of each service's keys: a widget key says it is publishable (`csk_pub_…`). */
const PREFIX: Record<Service, string> = { chat: 'chat', search: 'search', widget: 'pub' }
const SERVICE_OF_PREFIX: Record<string, Service> = { chat: 'chat', search: 'search', pub: 'widget' }

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SECRET_LENGTH = 40
const KEY_FORMAT = /^csk_(chat|search|pub)_([0-9A-Za-z]{32,128})$/

/** Uniform random base62 text from the CSPRNG (randomInt avoids modulo bias). */
export function randomBase62 (length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)]
  return out
}

export const newId = (prefix: 'prj' | 'key') => `${prefix}_${randomBase62(20)}`

/** A new credential: `csk_<chat|search|pub>_<40 base62 characters>` (about 238 bits). */
export function generateKey (service: Service): string {
  return `csk_${PREFIX[service]}_${randomBase62(SECRET_LENGTH)}`
}

/** The service a well-formed key is for, or undefined for anything that is not a key. */
export function keyService (key: string): Service | undefined {
  const match = KEY_FORMAT.exec(key)
  return match === null ? undefined : SERVICE_OF_PREFIX[match[1]!]
}

/**
 * Keys are looked up by their SHA-256, never compared as text: the time a lookup takes depends on
 * the hash of what the caller sent, which tells nothing about any stored secret.
 */
export function hashKey (key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}

/** What a listing shows of a key: its service prefix and last four characters. */
export function keyHint (key: string): string {
  return `${key.slice(0, key.lastIndexOf('_') + 1)}…${key.slice(-4)}`
}
