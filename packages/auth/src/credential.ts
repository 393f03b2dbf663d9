import { createHash, randomInt } from 'node:crypto'

export const services = ['chat', 'search'] as const
export type Service = typeof services[number]

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SECRET_LENGTH = 40
const KEY_FORMAT = /^csk_(chat|search)_([0-9A-Za-z]{32,128})$/

/** Uniform random base62 text from the CSPRNG (randomInt avoids modulo bias). */
export function randomBase62 (length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)]
  return out
}

export const newId = (prefix: 'prj' | 'key') => `${prefix}_${randomBase62(20)}`

/** A new credential: `csk_<service>_<40 base62 characters>` (about 238 bits). */
export function generateKey (service: Service): string {
  return `csk_${service}_${randomBase62(SECRET_LENGTH)}`
}

/** The service a well-formed key is for, or undefined for anything that is not a key. */
export function keyService (key: string): Service | undefined {
  const match = KEY_FORMAT.exec(key)
  return match === null ? undefined : match[1] as Service
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
