import { createHmac, randomBytes } from 'node:crypto'

/**
 * Who made a search, as autocomplete counts distinct searchers: the request's consumer_id, or the
 * client address of a search without one. The two are kept apart ("c:" and "a:"), so that a
 * consumer id that looks like an address is not that address.
 */
export function searcherOf (consumerId: string | null | undefined, address: string): string {
  return consumerId === undefined || consumerId === null || consumerId === '' ? `a:${address}` : `c:${consumerId}`
}

/** Bytes of a searcher's keyed hash kept: 2^64 values, no two searchers of a search alike in practice. */
const HASH_BYTES = 8

/**
 * A catalog's key for its searchers' hashes: random, made once per catalog and kept with its popular
 * searches, so that every replica and every restart counts the same searcher once.
 */
export const newSearcherKey = () => randomBytes(32)

/**
 * What an engine stores of a searcher: 8 bytes of HMAC-SHA256 under the catalog's key, never the
 * consumer id or the address itself.
 */
export function searcherHash (key: Uint8Array, searcher: string): Buffer {
  return createHmac('sha256', key).update(searcher).digest().subarray(0, HASH_BYTES)
}
