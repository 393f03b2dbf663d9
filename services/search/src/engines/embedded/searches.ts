/**
 * Autocomplete's popular searches in a catalog file (tables `searches` and `search_searchers`, see
 * database.ts): recorded one by one on the writer thread, read by suggestions.ts and by the console's
 * list. Bounded: a search keeps the keyed hashes of at most as many searchers as the catalog's
 * suggestionsMinSearchers asks, and the file at most limits.popularSearchesMax searches.
 */
import { limits } from '@chatsearch/contracts'
import type { PopularSearches, RecordedSearch } from '../../engine/port.js'
import { newSearcherKey, searcherHash } from '../../engine/searchers.js'
import { readMeta, writeMeta, type Db, type Statement } from './database.js'

type Prepare = (sql: string) => Statement

/** The meta key of the catalog's key for its searchers' hashes (hex). */
const SEARCHER_KEY = 'searcher_key'
/**
 * New searches between two checks of the table's size: the check counts every row (a few ms at
 * 100,000), and the table grows at most this much past its bound meanwhile.
 */
const EVICT_EVERY = 1000

/** The catalog's key for its searchers' hashes, made on first use (inside a write transaction). */
export function searcherKey (db: Db): Buffer {
  const kept = readMeta(db, SEARCHER_KEY)
  if (kept !== undefined) return Buffer.from(kept, 'hex')
  const key = newSearcherKey()
  writeMeta(db, SEARCHER_KEY, key.toString('hex'))
  return key
}

/**
 * Counts one search of `folded` (inside a write transaction): one more time made, its keyword hits
 * when known (a search whose hits are not known leaves the last known count), and its searcher's
 * hash while the search has fewer than `minSearchers` (a searcher already counted is not counted
 * again). Then, every EVICT_EVERY new searches, the least searched beyond the bound are forgotten.
 */
export function recordSearch (prepare: Prepare, key: Buffer, folded: string, search: RecordedSearch, minSearchers: number, now = Date.now()) {
  const row = prepare(`INSERT INTO searches (query, count, hits, searchers, last) VALUES (@query, 1, @hits, 0, @now)
    ON CONFLICT (query) DO UPDATE SET count = count + 1, hits = coalesce(excluded.hits, hits), last = excluded.last
    RETURNING id, count, searchers`).get({ query: folded, hits: search.keywordHits, now }) as { id: number, count: number, searchers: number }
  if (row.searchers < minSearchers) {
    const added = prepare('INSERT OR IGNORE INTO search_searchers (search, searcher) VALUES (?, ?)').run(row.id, searcherHash(key, search.searcher)).changes
    if (added > 0) prepare('UPDATE searches SET searchers = searchers + 1 WHERE id = ?').run(row.id)
  }
  if (row.count === 1 && row.id % EVICT_EVERY === 0) forgetLeastSearched(prepare, limits.popularSearchesMax)
}

/** Keeps the `max` most searched (the most recently searched among equals); their searchers go with the others. */
export function forgetLeastSearched (prepare: Prepare, max: number) {
  const excess = (prepare('SELECT count(*) FROM searches').pluck().get() as number) - max
  if (excess <= 0) return
  prepare('DELETE FROM searches WHERE id IN (SELECT id FROM searches ORDER BY count, last LIMIT ?)').run(excess)
}

/** A page of the popular searches, the most searched first, the most recently searched among equals (searches_least read backwards). */
export function popularSearches (prepare: Prepare, limit: number, offset: number): PopularSearches {
  const searches = prepare('SELECT query, count, searchers, hits FROM searches ORDER BY count DESC, last DESC LIMIT ? OFFSET ?').all(limit, offset) as PopularSearches['searches']
  return { searches, total: prepare('SELECT count(*) FROM searches').pluck().get() as number }
}
