import Database from 'better-sqlite3'
import type { Db } from './database.js'
import { FTS_TOKENIZER } from './fts.js'

/**
 * A project's knowledge, in a SQLite file of its own beside its catalog's: catalog re-indexing (which
 * may hold the catalog file's write lock for a while on another thread) never delays it.
 * `documents` holds each document as sent; `chunks` its chunks in order, each with its embedding as
 * float32 bytes (`vector`, null without one); `fts` the keyword index of the chunks (the document's
 * title, the chunk's heading path and text), with `fts_vocab` its terms for typo tolerance.
 * Tables are created when missing and never altered, as the catalog's.
 */
export function openKnowledgeDatabase (file: string): Db {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  // The admin CLI may write while the service runs: wait for the other writer rather than fail.
  db.pragma('busy_timeout = 10000')
  db.pragma('foreign_keys = ON')
  db.exec(`
    CREATE TABLE IF NOT EXISTS documents (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      format TEXT,
      url TEXT,
      content TEXT NOT NULL,
      hash TEXT NOT NULL,
      embedder TEXT NOT NULL,
      chunk_count INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS documents_kind ON documents (kind, id);
    CREATE TABLE IF NOT EXISTS chunks (
      rowid INTEGER PRIMARY KEY,
      doc INTEGER NOT NULL REFERENCES documents (rowid) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      chunk_id TEXT NOT NULL,
      section TEXT NOT NULL,
      text TEXT NOT NULL,
      url TEXT,
      vector BLOB
    );
    CREATE INDEX IF NOT EXISTS chunks_doc ON chunks (doc, position);
    CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, section, text, content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}');
    CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab(fts, 'row');
  `)
  return db
}
