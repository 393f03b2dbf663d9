import type { Document, IndexSettings } from '../../engine/port.js'
import type { CatalogFile } from './catalog-file.js'
import { createFts, writeMeta } from './database.js'
import { indexDocument, newBatch } from './writes.js'

/**
 * The meta key of autocomplete's rules (suggestionsMinSearchers, suggestionsExcluded), kept apart from
 * the other settings: they change without a re-index, and are read by every autocomplete and every
 * recorded search, on whichever thread, without waiting for a new generation of the catalog.
 */
const SUGGESTION_SETTINGS = 'suggestion_settings'
export type SuggestionSettings = Pick<IndexSettings, 'suggestionsMinSearchers' | 'suggestionsExcluded'>

/** Autocomplete's rules as stored (each absent from a file written before them). */
export function suggestionSettings (catalog: CatalogFile): SuggestionSettings {
  const stored = catalog.sql('SELECT value FROM meta WHERE key = ?').pluck().get(SUGGESTION_SETTINGS) as string | undefined
  return stored === undefined ? {} : JSON.parse(stored) as SuggestionSettings
}

export function writeSuggestionSettings (catalog: CatalogFile, { suggestionsMinSearchers, suggestionsExcluded }: IndexSettings) {
  writeMeta(catalog.db, SUGGESTION_SETTINGS, JSON.stringify({ suggestionsMinSearchers, suggestionsExcluded } satisfies SuggestionSettings))
}

/**
 * Re-indexes every stored document with `settings`, inside the writing transaction: the keyword index
 * made again with a column per searchable attribute, the fields, facet labels and catalog phrases
 * derived anew. Not a write of the change log: the new generation makes every connection rebuild
 * what it derived (see CatalogFile.changeSettings).
 */
export function applySettings (catalog: CatalogFile, settings: IndexSettings) {
  // Autocomplete's rules are kept apart (see SUGGESTION_SETTINGS).
  const { suggestionsMinSearchers, suggestionsExcluded, ...indexing } = settings
  writeSuggestionSettings(catalog, settings)
  catalog.changeSettings(indexing)
  createFts(catalog.db, settings.searchableAttributes.length)
  catalog.db.exec('DELETE FROM fields; DELETE FROM facet_labels; DELETE FROM suggestions')
  // In pages: a connection cannot write while it is still iterating a read.
  const page = catalog.sql('SELECT rowid, body FROM documents WHERE rowid > ? ORDER BY rowid LIMIT 1000')
  const batch = newBatch()
  for (let last = 0, rows = page.all(last) as Array<{ rowid: number, body: string }>; rows.length > 0; rows = page.all(last) as typeof rows) {
    for (const row of rows) indexDocument(catalog, row.rowid, JSON.parse(row.body) as Document, batch)
    last = rows.at(-1)!.rowid
  }
  batch.phrases.write(catalog.sql)
  catalog.forgetDerived()
}
