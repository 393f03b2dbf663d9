import type { KnowledgeHit, KnowledgeIndex, KnowledgeQuery, KnowledgeSummary, PreparedKnowledge, StoredKnowledge } from '../../engine/port.js'
import type { KnowledgeKind } from '../../knowledge/types.js'
import { statementCache, type Db, type Statement } from './database.js'
import { openKnowledgeDatabase } from './knowledge-database.js'
import { CANDIDATES, COLUMN_WEIGHTS, PREFIX_TERMS, cosineAt, keywordScore, planKnowledgeQuery, rankCandidates, wordWeights, type Candidate } from './knowledge-ranking.js'
import { Vocabulary } from './typo.js'

interface DocumentRow { rowid: number, id: string, kind: KnowledgeKind, title: string, format: string | null, url: string | null, content: string, chunk_count: number, updated_at: string }
interface ChunkRow { rowid: number, doc: number, chunk_id: string, section: string, text: string, url: string | null }

/** Every stored chunk vector side by side, for an exact nearest-neighbour scan. */
interface VectorMatrix { rowids: number[], data: Float32Array, dimensions: number, /** Each rowid's place in `rowids`. */ at: Map<number, number> }

const vectorBytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/**
 * One project's knowledge in its own SQLite file (see knowledge-database.ts). Calls are synchronous
 * under the promise surface, on the event loop: a knowledge base is small next to a catalog (10k
 * chunks are scanned exactly in a few milliseconds), so neither reader threads nor vector codes are
 * needed. `embedder` names the model whose vectors are written (see storedHashes).
 */
export class EmbeddedKnowledgeIndex implements KnowledgeIndex {
  readonly #db: Db
  readonly #embedder: string
  readonly #statements: (text: string) => Statement
  #dataVersion = -1
  #vocabulary: Vocabulary | undefined
  #vectors: VectorMatrix | undefined

  constructor (file: string, embedder: string) {
    this.#db = openKnowledgeDatabase(file)
    this.#statements = statementCache(this.#db)
    this.#embedder = embedder
  }

  close () {
    this.#db.close()
  }

  async upsert (documents: PreparedKnowledge[]): Promise<void> {
    const now = new Date().toISOString()
    this.#db.transaction(() => {
      for (const prepared of documents) this.#write(prepared, now)
    }).immediate()
    this.#forgetDerived()
  }

  async remove (id: string): Promise<boolean> {
    const removed = this.#db.transaction(() => {
      const rowid = this.#sql('SELECT rowid FROM documents WHERE id = ?').pluck().get(id) as number | undefined
      if (rowid === undefined) return false
      this.#deleteChunks(rowid)
      this.#sql('DELETE FROM documents WHERE rowid = ?').run(rowid)
      return true
    }).immediate()
    if (removed) this.#forgetDerived()
    return removed
  }

  async get (id: string): Promise<StoredKnowledge | undefined> {
    const row = this.#sql('SELECT * FROM documents WHERE id = ?').get(id) as DocumentRow | undefined
    if (row === undefined) return undefined
    const chunks = this.#sql('SELECT chunk_id, section, text, url FROM chunks WHERE doc = ? ORDER BY position').all(row.rowid) as ChunkRow[]
    return {
      id: row.id,
      kind: row.kind,
      title: row.title,
      content: row.content,
      ...(row.format === null ? {} : { format: row.format as 'markdown' }),
      ...(row.url === null ? {} : { url: row.url }),
      chunks: chunks.map((c) => ({ id: c.chunk_id, section: c.section, text: c.text, ...(c.url === null ? {} : { url: c.url }) })),
      updatedAt: row.updated_at
    }
  }

  async list ({ limit, offset, kind }: { limit: number, offset: number, kind?: KnowledgeKind }): Promise<{ results: KnowledgeSummary[], total: number }> {
    const where = kind === undefined ? '' : 'WHERE kind = ?'
    const args = kind === undefined ? [] : [kind]
    const rows = this.#sql(`SELECT id, kind, title, url, chunk_count, updated_at FROM documents ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset) as DocumentRow[]
    const total = this.#sql(`SELECT count(*) FROM documents ${where}`).pluck().get(...args) as number
    const results = rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, ...(r.url === null ? {} : { url: r.url }), chunks: r.chunk_count, updatedAt: r.updated_at }))
    return { results, total }
  }

  async count (): Promise<number> {
    return this.#sql('SELECT count(*) FROM documents').pluck().get() as number
  }

  /** With embeddings on, a document written by another embedder (or none) has no hash that counts: it is embedded again. */
  async storedHashes (ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    const statement = this.#sql('SELECT hash, embedder FROM documents WHERE id = ?')
    for (const id of ids) {
      const row = statement.get(id) as { hash: string, embedder: string } | undefined
      if (row !== undefined && (this.#embedder === 'none' || row.embedder === this.#embedder)) out.set(id, row.hash)
    }
    return out
  }

  async search (query: KnowledgeQuery): Promise<KnowledgeHit[]> {
    // One read transaction: the vectors held in memory and the chunks they point to are of the same
    // commit, even when another process (the admin CLI) writes between the two.
    return this.#db.transaction(() => {
      this.#refresh()
      return this.#searchNow(query)
    })()
  }

  #searchNow (query: KnowledgeQuery): KnowledgeHit[] {
    const plan = planKnowledgeQuery(query.q, this.#vocab())
    if (plan === undefined || query.limit === 0) return []
    const keywordRows = this.#sql(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, ${COLUMN_WEIGHTS.join(', ')}), rowid LIMIT ?`)
      .pluck().all(plan.match, CANDIDATES) as number[]
    const candidates = new Map<number, Candidate>()
    keywordRows.forEach((rowid, rank) => candidates.set(rowid, { rowid, bm25Rank: rank, keyword: 0, semantic: 0 }))
    const ratio = query.hybrid?.semanticRatio ?? 0
    if (query.hybrid !== undefined && ratio > 0) {
      for (const [rowid, similarity] of this.#nearest(query.hybrid.vector, CANDIDATES)) {
        const known = candidates.get(rowid)
        if (known === undefined) candidates.set(rowid, { rowid, bm25Rank: Infinity, keyword: 0, semantic: similarity })
        else known.semantic = similarity
      }
      // Keyword candidates beyond the nearest still have a similarity.
      const matrix = this.#matrix()
      for (const c of candidates.values()) {
        const i = matrix.at.get(c.rowid)
        if (c.semantic === 0 && i !== undefined && matrix.dimensions === query.hybrid.vector.length) c.semantic = cosineAt(query.hybrid.vector, matrix.data, i * matrix.dimensions)
      }
    }
    const chunks = this.#chunks([...candidates.keys()])
    const weights = wordWeights(plan, (term) => this.#chunksWithTerm(term), this.#sql('SELECT count(*) FROM chunks').pluck().get() as number, (prefix) => this.#vocab().withPrefix(prefix, PREFIX_TERMS))
    for (const c of candidates.values()) {
      const chunk = chunks.get(c.rowid)
      if (chunk !== undefined) c.keyword = keywordScore(plan, weights, `${chunk.title} ${chunk.section} ${chunk.text}`)
    }
    return rankCandidates([...candidates.values()], ratio, query.limit).map(({ rowid, score }) => {
      const chunk = chunks.get(rowid)!
      return {
        documentId: chunk.document_id,
        chunkId: chunk.chunk_id,
        kind: chunk.kind,
        title: chunk.title,
        section: chunk.section,
        text: chunk.text,
        ...(chunk.url === null ? {} : { url: chunk.url }),
        score
      }
    })
  }

  #write ({ document, hash, chunks, vectors }: PreparedKnowledge, now: string) {
    const existing = this.#sql('SELECT rowid FROM documents WHERE id = ?').pluck().get(document.id) as number | undefined
    const fields = [document.kind, document.title, document.format ?? null, document.url ?? null, document.content, hash, vectors === undefined ? 'none' : this.#embedder, chunks.length, now]
    let rowid: number
    if (existing === undefined) {
      rowid = Number(this.#sql(`INSERT INTO documents (id, kind, title, format, url, content, hash, embedder, chunk_count, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(document.id, ...fields).lastInsertRowid)
    } else {
      rowid = existing
      this.#deleteChunks(rowid)
      this.#sql(`UPDATE documents SET kind = ?, title = ?, format = ?, url = ?, content = ?, hash = ?, embedder = ?, chunk_count = ?, updated_at = ?
        WHERE rowid = ?`).run(...fields, rowid)
    }
    const insertChunk = this.#sql('INSERT INTO chunks (doc, position, chunk_id, section, text, url, vector) VALUES (?, ?, ?, ?, ?, ?, ?)')
    const insertFts = this.#sql('INSERT INTO fts (rowid, title, section, text) VALUES (?, ?, ?, ?)')
    chunks.forEach((chunk, position) => {
      const vector = vectors?.[position]
      const chunkRowid = insertChunk.run(rowid, position, chunk.id, chunk.section, chunk.text, chunk.url ?? null, vector === undefined || vector === null ? null : vectorBytes(vector)).lastInsertRowid
      insertFts.run(chunkRowid, document.title, chunk.section, chunk.text)
    })
  }

  #deleteChunks (doc: number) {
    const rowids = this.#sql('SELECT rowid FROM chunks WHERE doc = ?').pluck().all(doc) as number[]
    const deleteFts = this.#sql('DELETE FROM fts WHERE rowid = ?')
    for (const rowid of rowids) deleteFts.run(rowid)
    this.#sql('DELETE FROM chunks WHERE doc = ?').run(doc)
  }

  /** The chunks with these rowids, with their document's fields. */
  #chunks (rowids: number[]) {
    const rows = this.#sql(`SELECT c.rowid, c.chunk_id, c.section, c.text, c.url, d.id AS document_id, d.kind, d.title
      FROM chunks c JOIN documents d ON d.rowid = c.doc WHERE c.rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rowids)) as Array<ChunkRow & { document_id: string, kind: KnowledgeKind, title: string }>
    return new Map(rows.map((r) => [r.rowid, r]))
  }

  #chunksWithTerm (term: string): number {
    return (this.#sql('SELECT doc FROM fts_vocab WHERE term = ?').pluck().get(term) as number | undefined) ?? 0
  }

  /** The `k` chunks nearest to `vector`, with their similarity, by an exact scan. */
  #nearest (vector: Float32Array, k: number): Array<[number, number]> {
    const matrix = this.#matrix()
    if (matrix.dimensions !== vector.length) return []
    const scored: Array<[number, number]> = matrix.rowids.map((rowid, i) => [rowid, cosineAt(vector, matrix.data, i * matrix.dimensions)])
    return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k)
  }

  /** The vectors of the current embedder (those of another one, left from before a change, do not compare). */
  #matrix (): VectorMatrix {
    if (this.#vectors !== undefined) return this.#vectors
    const rows = this.#sql(`SELECT c.rowid, c.vector FROM chunks c JOIN documents d ON d.rowid = c.doc
      WHERE c.vector IS NOT NULL AND d.embedder = ? ORDER BY c.rowid`).all(this.#embedder) as Array<{ rowid: number, vector: Buffer }>
    const dimensions = rows.length === 0 ? 0 : rows[0]!.vector.length / 4
    const data = new Float32Array(rows.length * dimensions)
    rows.forEach((row, i) => data.set(new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)), i * dimensions))
    const rowids = rows.map((r) => r.rowid)
    this.#vectors = { rowids, data, dimensions, at: new Map(rowids.map((rowid, i) => [rowid, i])) }
    return this.#vectors
  }

  #vocab (): Vocabulary {
    this.#vocabulary ??= new Vocabulary(this.#sql('SELECT term FROM fts_vocab').pluck().all() as string[])
    return this.#vocabulary
  }

  /** Another process (the admin CLI) may have written to the file: what is derived from it is then read again. */
  #refresh () {
    const version = this.#db.pragma('data_version', { simple: true }) as number
    if (version === this.#dataVersion) return
    this.#dataVersion = version
    this.#forgetDerived()
  }

  #forgetDerived () {
    this.#vocabulary = undefined
    this.#vectors = undefined
  }

  /** Statements are compiled once per SQL text. */
  #sql (text: string): Statement {
    return this.#statements(text)
  }
}
