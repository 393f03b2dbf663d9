import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { FTS_TOKENIZER } from './fts.js'

export type Db = Database.Database
export type Statement = Database.Statement

/**
 * One SQLite file per project. `documents` holds each item as JSON; `fields` holds the filterable,
 * facetable and sortable values, one row per attribute and value (see flatten.ts); `fts` is the
 * keyword index over the searchable attributes (one column each, in priority order); `vectors`
 * holds the embeddings (sqlite-vec) and `vector_codes` compact codes of them for the nearest-neighbour
 * search (see vector-codes.ts); `suggestions` (catalog phrases: titles, brands,
 * categories, with how many items carry them) and `searches` (popular searches, with the keyed
 * hashes of their first searchers in `search_searchers`, see searches.ts) feed autocomplete;
 * `changes` lists the documents each recent write touched (see changes.ts).
 *
 * Tables are created when missing and never altered: the layout has no version, and nothing
 * migrates or rebuilds a file written with another layout. `fts`, `fields`, `facet_labels` and
 * `suggestions` are derived from `documents` with the settings, and rebuilt from them when the
 * settings change (EmbeddedIndex.updateSettings). The popular searches of files written before
 * searchers were counted (`queries`, without them) are dropped: none of them could be suggested.
 */
export function openDatabase (file: string): Db {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // The admin CLI may write while the service runs: wait for the other writer rather than fail.
  db.pragma('busy_timeout = 10000')
  db.pragma('foreign_keys = ON')
  db.pragma('cache_size = -65536')
  db.pragma('temp_store = MEMORY')
  sqliteVec.load(db)
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS documents (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      body TEXT NOT NULL,
      hash TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS fields (doc INTEGER NOT NULL, attr TEXT NOT NULL, kind INTEGER NOT NULL, str TEXT, num REAL);
    -- Covering: the posting lists of an attribute are read from this index alone, in value order.
    CREATE INDEX IF NOT EXISTS fields_attr ON fields (attr, str, kind, doc, num);
    CREATE INDEX IF NOT EXISTS fields_doc ON fields (doc);
    CREATE TABLE IF NOT EXISTS facet_labels (attr TEXT NOT NULL, str TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY (attr, str));
    DROP TABLE IF EXISTS queries;
    -- One row per distinct search, folded: how often made, the keyword hits of its last search whose
    -- keyword hits were known (NULL: none yet), its distinct searchers counted (at most the catalog's
    -- suggestionsMinSearchers) and when it was last made (ms), to forget the least searched first.
    CREATE TABLE IF NOT EXISTS searches (
      id INTEGER PRIMARY KEY,
      query TEXT NOT NULL UNIQUE,
      count INTEGER NOT NULL,
      hits INTEGER,
      searchers INTEGER NOT NULL,
      last INTEGER NOT NULL
    );
    -- Autocomplete's popular searches, most searched first, for a prefix many searches begin with
    -- (suggestions.ts): read through the query's index, a one-letter prefix sorted every search so
    -- begun (0.5-1 s at a million rows).
    CREATE INDEX IF NOT EXISTS searches_top ON searches (count DESC, query) WHERE hits > 0;
    -- The least searched, least recently among equals: forgotten first (searches.ts); read backwards,
    -- the console's list of popular searches.
    CREATE INDEX IF NOT EXISTS searches_least ON searches (count, last);
    -- The keyed hashes (see engine/searchers.ts) of a search's searchers, as many as it needs.
    CREATE TABLE IF NOT EXISTS search_searchers (
      search INTEGER NOT NULL REFERENCES searches (id) ON DELETE CASCADE,
      searcher BLOB NOT NULL,
      PRIMARY KEY (search, searcher)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS suggestions (folded TEXT PRIMARY KEY, phrase TEXT NOT NULL, weight INTEGER NOT NULL);
    -- The change log of the catalog's writes, as JSON arrays (see changes.ts).
    CREATE TABLE IF NOT EXISTS changes (generation INTEGER PRIMARY KEY, rowids TEXT NOT NULL, added TEXT NOT NULL, dropped TEXT NOT NULL);
  `)
  return db
}

/**
 * The vectors table is made for one embedder: another model (or vector size) makes every stored
 * vector meaningless, so the table is recreated and the documents marked as changed, for the next
 * import to embed them again.
 */
export function prepareVectors (db: Db, embedder: string, dimensions: number) {
  db.exec('CREATE TABLE IF NOT EXISTS vector_codes (rowid INTEGER PRIMARY KEY, bits BLOB NOT NULL, codes BLOB NOT NULL)')
  // With embeddings switched off, the vectors already stored are kept for when they are switched on
  // again (an item written meanwhile is stored without one, and keeps none after).
  if (embedder === 'none') {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS vectors USING vec0(embedding float[${dimensions}] distance_metric=cosine)`)
  } else if (readMeta(db, 'embedder') !== embedder) {
    db.transaction(() => {
      db.exec(`DROP TABLE IF EXISTS vectors;
        CREATE VIRTUAL TABLE vectors USING vec0(embedding float[${dimensions}] distance_metric=cosine);
        DELETE FROM vector_codes;
        UPDATE documents SET hash = ''`)
      writeMeta(db, 'embedder', embedder)
    }).immediate()
  }
}

/**
 * The prefix lengths FTS5 keeps an index of. A query's last word is matched as a prefix ("boo" finds
 * "boots"); without an index of that length FTS5 merges the doclist of every term so begun, for every
 * query. Measured on the bench catalogs (same run, the raw statement, 50k and 200k items): the ranked
 * page 18% cheaper and counting the matches 30%; with 2 letters typed of the last word, a third of the
 * time at 200k. It costs a keyword index 22% larger and, by itself, ingestion 6–17% slower (the change
 * log's cheaper tokenizing, in changes.ts, more than made up for that). Longer prefixes begin fewer
 * terms, so they gain less.
 */
export const FTS_PREFIXES = '2 3 4'

/**
 * (Re)creates the keyword index with one column per searchable attribute. A file made before the
 * prefix indexes keeps its index without them (FTS5 answers the same, slower) until its settings are
 * next applied.
 */
export function createFts (db: Db, columns: number) {
  const names = Array.from({ length: Math.max(columns, 1) }, (_, i) => `c${i}`).join(', ')
  db.exec(`
    DROP TABLE IF EXISTS fts_vocab;
    DROP TABLE IF EXISTS fts;
    CREATE VIRTUAL TABLE fts USING fts5(${names}, prefix='${FTS_PREFIXES}', content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}');
    CREATE VIRTUAL TABLE fts_vocab USING fts5vocab(fts, 'row');
  `)
}

export function readMeta (db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined
  return row?.value
}

export function writeMeta (db: Db, key: string, value: string) {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
}

/** A statement compiler that compiles each SQL text once per connection (better-sqlite3 does not cache them). */
export function statementCache (db: Db): (text: string) => Statement {
  const statements = new Map<string, Statement>()
  return (text) => {
    let statement = statements.get(text)
    if (statement === undefined) {
      statement = db.prepare(text)
      statements.set(text, statement)
    }
    return statement
  }
}
