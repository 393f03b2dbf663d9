import type { Db } from './database.js'
import { FTS_TOKENIZER } from './fts.js'

/**
 * The change log: which documents each write of the catalog touched, kept in the index file beside
 * the data and written in the same transaction. An index that has derived data in memory (vocabulary,
 * facet postings, filter index, vector codes) patches it with the rows changed since its generation,
 * instead of rebuilding it all (hundreds of milliseconds at 50k) — on the writing thread and on every
 * reader thread alike. A generation without a row (a change of settings) or one pruned from the log
 * makes the index rebuild as before.
 */
export interface Change {
  /** Documents written or removed, ascending. */
  rowids: number[]
  /** Keyword-index terms of the new texts, and of the texts replaced or removed. */
  added: string[]
  dropped: string[]
}

/** Generations kept: an index further behind than this rebuilds its derived data. */
const KEPT = 256

/** Records `change` as `generation`'s, inside the writing transaction, and forgets old ones. */
export function recordChange (db: Db, generation: number, change: Change) {
  db.prepare('INSERT OR REPLACE INTO changes (generation, rowids, added, dropped) VALUES (?, ?, ?, ?)')
    .run(generation, JSON.stringify(change.rowids), JSON.stringify(change.added), JSON.stringify(change.dropped))
  db.prepare('DELETE FROM changes WHERE generation <= ?').run(generation - KEPT)
}

/**
 * The changes after generation `from` up to `to`, merged; undefined when one of them is not in the
 * log (pruned, or a change of settings, which every derived structure must be rebuilt after).
 */
export function changesBetween (db: Db, from: number, to: number): Change | undefined {
  if (!(to > from)) return undefined
  const rows = db.prepare('SELECT rowids, added, dropped FROM changes WHERE generation > ? AND generation <= ? ORDER BY generation')
    .raw().all(from, to) as Array<[string, string, string]>
  if (rows.length !== to - from) return undefined
  const rowids = new Set<number>()
  const added = new Set<string>()
  const dropped = new Set<string>()
  for (const [r, a, d] of rows) {
    for (const rowid of JSON.parse(r) as number[]) rowids.add(rowid)
    for (const term of JSON.parse(a) as string[]) added.add(term)
    for (const term of JSON.parse(d) as string[]) dropped.add(term)
  }
  return { rowids: [...rowids].sort((a, b) => a - b), added: [...added], dropped: [...dropped] }
}

/**
 * The terms FTS5 makes of `texts`, with the keyword index's tokenizer: they are tokenized by a
 * scratch FTS5 table in the connection's temporary database, so that they are exactly the index's.
 * Only the terms are read, so the scratch table keeps no positions or sizes (detail=none,
 * columnsize=0), and the texts go in as one row, a line each (a line break separates tokens): as a
 * full-detail table with a row per text it was a fifth of an import's CPU.
 */
export function ftsTerms (db: Db, texts: string[]): string[] {
  if (texts.length === 0) return []
  return [...scratchTerms(db, [texts.join('\n')]).keys()]
}

/**
 * The terms FTS5 makes of `texts` as ftsTerms does, each with the number of texts holding it: what
 * a write adds to (or takes from) the `doc` counts of an index's fts5vocab table.
 */
export function ftsTermCounts (db: Db, texts: string[]): Map<string, number> {
  return texts.length === 0 ? new Map() : scratchTerms(db, texts)
}

/** `texts` through the scratch table, a row each: each term with the number of rows holding it. */
function scratchTerms (db: Db, texts: string[]): Map<string, number> {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch_terms USING fts5(t, tokenize='${FTS_TOKENIZER}', detail=none, columnsize=0);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch_terms_vocab USING fts5vocab(temp, scratch_terms, 'row');
    DELETE FROM temp.scratch_terms`)
  const insert = db.prepare('INSERT INTO temp.scratch_terms (t) VALUES (?)')
  for (const text of texts) insert.run(text)
  const terms = new Map(db.prepare('SELECT term, doc FROM temp.scratch_terms_vocab').raw().all() as Array<[string, number]>)
  db.exec('DELETE FROM temp.scratch_terms')
  return terms
}

/**
 * `list` without the documents marked, with `extra` after them; the same list when nothing changes.
 * Plain loops over typed arrays: patches run on every reader after every write.
 */
export function patchList (list: Int32Array, marks: Uint8Array, extra: ArrayLike<number> = []): Int32Array {
  const size = marks.length
  let removed = 0
  for (let i = 0; i < list.length; i++) {
    const d = list[i]!
    if (d < size && marks[d] === 1) removed++
  }
  if (removed === 0 && extra.length === 0) return list
  const out = new Int32Array(list.length - removed + extra.length)
  let at = 0
  if (removed === 0) {
    out.set(list)
    at = list.length
  } else {
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!
      if (d >= size || marks[d] !== 1) out[at++] = d
    }
  }
  for (let i = 0; i < extra.length; i++) out[at++] = extra[i]!
  return out
}

/** Sets `marks[r] = 1` for each rowid (the marks grown to fit), so that lists can be filtered by them. */
export function rowidMarks (rowids: number[]): Uint8Array {
  const marks = new Uint8Array((rowids.at(-1) ?? 0) + 1)
  for (const r of rowids) marks[r] = 1
  return marks
}
