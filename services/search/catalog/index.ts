/**
 * The demo catalog's judged sets, for the other packages' tests and benches (they depend on this
 * package as a dev dependency; nothing in production reads these).
 */
export { compileFilter } from './mini-filter.js'

/** Shopper messages with the demo items that answer them best (see README.md beside this file). */
export const assistantSetFile = new URL('./assistant-set.json', import.meta.url)
