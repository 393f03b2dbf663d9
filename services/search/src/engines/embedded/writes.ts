import { searchableText } from '../../engine/document-values.js'
import { suggestionPhrases } from '../../engine/phrases.js'
import type { Document, PreparedDocument } from '../../engine/port.js'
import { fieldAttributes } from '../../engine/settings.js'
import { flattenDocument } from './flatten.js'
import type { CatalogFile } from './catalog-file.js'
import { ftsTerms, recordChange } from './changes.js'
import { readMeta, writeMeta } from './database.js'
import { PhraseTally } from './suggestions.js'
import { deleteVector, storeVector } from './vector-codes.js'

/**
 * Write transactions between two merges of the keyword index into one segment (at least; a catalog
 * of more than 100 times as many documents waits one write per 100 documents). FTS5 writes a segment
 * per transaction and keeps removed rows as tombstones until a merge: in a measured churn of small
 * writes on 1,200 items, queries ran 47% slower after 1,000 transactions, its automerge and a
 * 'merge' of 500 pages did not bring them back, an 'optimize' did. One costs about 0.5 s at 50k
 * items, inside the write that reaches the count; readers keep their snapshot meanwhile.
 */
export const FTS_TIDY_WRITES = 200

/** What one write accumulates and stores once, at its end. */
export interface WriteBatch {
  phrases: PhraseTally
  /** Facet labels already stored in this write, as `attr\u0000str`. */
  labels: Set<string>
  /** For the change log (left out by a re-index, after which everything derived is rebuilt). */
  changed?: { rowids: Set<number>, added: string[], dropped: string[] }
}

export const newBatch = (logged = false): WriteBatch => ({
  phrases: new PhraseTally(),
  labels: new Set(),
  ...(logged ? { changed: { rowids: new Set<number>(), added: [], dropped: [] } } : {})
})

/**
 * Adds or replaces documents, inside the writing transaction, once the catalog has settings: one
 * write of the change log.
 */
export function writeDocuments (catalog: CatalogFile, prepared: PreparedDocument[]) {
  const batch = newBatch(true)
  let newDocuments = 0
  for (const item of prepared) if (writeDocument(catalog, item, batch)) newDocuments++
  batch.phrases.write(catalog.sql)
  logChange(catalog, batch, newDocuments)
}

/** Removes a document, inside the writing transaction; false when there is none with that id. */
export function removeDocument (catalog: CatalogFile, id: string): boolean {
  const row = catalog.sql('SELECT rowid, body FROM documents WHERE id = ?').get(id) as { rowid: number, body: string } | undefined
  if (row === undefined) return false
  const batch = newBatch(true)
  unindexDocument(catalog, row.rowid, JSON.parse(row.body) as Document, batch)
  batch.phrases.write(catalog.sql)
  catalog.sql('DELETE FROM documents WHERE rowid = ?').run(row.rowid)
  logChange(catalog, batch, -1)
  return true
}

/** Writes one document; true when it is new. */
function writeDocument (catalog: CatalogFile, { document, hash = '', vector }: PreparedDocument, batch: WriteBatch): boolean {
  const { sql } = catalog
  const existing = sql('SELECT rowid, body FROM documents WHERE id = ?').get(document.id) as { rowid: number, body: string } | undefined
  let rowid: number
  if (existing === undefined) {
    rowid = Number(sql('INSERT INTO documents (id, body, hash) VALUES (?, ?, ?)').run(document.id, JSON.stringify(document), hash).lastInsertRowid)
  } else {
    rowid = existing.rowid
    unindexDocument(catalog, rowid, JSON.parse(existing.body) as Document, batch)
    sql('UPDATE documents SET body = ?, hash = ? WHERE rowid = ?').run(JSON.stringify(document), hash, rowid)
  }
  indexDocument(catalog, rowid, document, batch)
  if (vector !== undefined && vector !== null) storeVector(sql, rowid, vector)
  return existing === undefined
}

/** Indexes a stored document with the catalog's settings: its keyword columns, fields and facet labels. */
export function indexDocument (catalog: CatalogFile, rowid: number, document: Document, batch: WriteBatch) {
  const { sql } = catalog
  const settings = catalog.settings!
  const columns = settings.searchableAttributes.map((attr) => searchableText(document, attr))
  const placeholders = columns.map(() => '?').join(', ')
  if (columns.length > 0) sql(`INSERT INTO fts (rowid, ${columns.map((_, i) => `c${i}`).join(', ')}) VALUES (?, ${placeholders})`).run(rowid, ...columns)
  batch.changed?.rowids.add(rowid)
  batch.changed?.added.push(...columns)
  batch.phrases.add(suggestionPhrases(document), 1)
  const insertField = sql('INSERT INTO fields (doc, attr, kind, str, num) VALUES (?, ?, ?, ?, ?)')
  const insertLabel = sql('INSERT OR IGNORE INTO facet_labels (attr, str, label) VALUES (?, ?, ?)')
  for (const f of flattenDocument(document, fieldAttributes(settings))) {
    insertField.run(rowid, f.attr, f.kind, f.str, f.num)
    if (f.str === null || f.label === undefined) continue
    const key = `${f.attr}\u0000${f.str}`
    if (batch.labels.has(key)) continue
    batch.labels.add(key)
    insertLabel.run(f.attr, f.str, f.label)
  }
}

function unindexDocument (catalog: CatalogFile, rowid: number, document: Document, batch: WriteBatch) {
  const { sql } = catalog
  batch.phrases.add(suggestionPhrases(document), -1)
  if (batch.changed !== undefined) {
    batch.changed.rowids.add(rowid)
    batch.changed.dropped.push(...catalog.settings!.searchableAttributes.map((attr) => searchableText(document, attr)))
  }
  sql('DELETE FROM fts WHERE rowid = ?').run(rowid)
  sql('DELETE FROM fields WHERE doc = ?').run(rowid)
  deleteVector(sql, rowid)
}

/** Ends a logged write: its change recorded under a new generation, the count of documents kept (inside its transaction). */
function logChange (catalog: CatalogFile, batch: WriteBatch, newDocuments: number) {
  const { db } = catalog
  const kept = readMeta(db, 'count')
  writeMeta(db, 'count', String(kept === undefined ? catalog.countRows() : Number(kept) + newDocuments))
  const generation = catalog.bumpGeneration()
  tidyKeywordIndex(catalog, generation)
  const { rowids, added, dropped } = batch.changed!
  recordChange(db, generation, {
    rowids: [...rowids].sort((a, b) => a - b),
    added: ftsTerms(db, added),
    dropped: ftsTerms(db, dropped)
  })
}

/** Merges the keyword index into one segment when FTS_TIDY_WRITES writes have passed since the last time (inside a write). */
function tidyKeywordIndex (catalog: CatalogFile, generation: number) {
  const last = Number(readMeta(catalog.db, 'fts_tidied') ?? '0')
  const every = Math.max(FTS_TIDY_WRITES, Math.ceil(Number(readMeta(catalog.db, 'count') ?? '0') / 100))
  if (generation - last < every) return
  catalog.sql("INSERT INTO fts(fts) VALUES('optimize')").run()
  writeMeta(catalog.db, 'fts_tidied', String(generation))
}
