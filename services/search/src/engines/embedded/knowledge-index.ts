import type { ChunkHit, KnowledgeIndex, KnowledgeQuery, ListedKnowledge, PreparedKnowledge, StoredKnowledge } from '../../engine/port.js'
import type { KnowledgeKind } from '../../knowledge/types.js'
import { statementCache, type Db, type Statement } from './database.js'
import { openKnowledgeDatabase } from './knowledge-database.js'
import { CANDIDATES, COLUMN_WEIGHTS, PREFIX_TERMS, chunkWords, keywordScore, similaritiesTo, planKnowledgeQuery, rankCandidates, wordWeights, type Candidate, type ChunkWords } from './knowledge-ranking.js'
import { KeptChunkWords } from './knowledge-words.js'
import { KnowledgeTerms } from './knowledge-terms.js'
import { VOCABULARY_MAX_NODES } from './typo.js'
import { ftsTermCounts } from './changes.js'

interface DocumentRow { rowid: number, id: string, kind: KnowledgeKind, title: string, format: string | null, url: string | null, content: string, chunk_count: number, updated_at: string }
interface ChunkRow { rowid: number, doc: number, chunk_id: string, section: string, text: string, url: string | null }

/** Every stored chunk vector side by side, for an exact nearest-neighbour scan. */
interface VectorMatrix { rowids: number[], data: Float32Array, dimensions: number, /** Each rowid's place in `rowids`. */ at: Map<number, number> }

/**
 * A write's chunks, each with the text its words come from (wordsText): those it deleted that were
 * there before it, and those it inserted that are still there after it (a batch holding one document
 * twice deletes the chunks its first copy inserted), in rowid order, each with its vector.
 */
interface WrittenChunks { deleted: Array<{ rowid: number, text: string }>, inserted: Map<number, { rowid: number, text: string, vector?: Float32Array }> }

/** The typo trie of a knowledge index's terms: its budget, and how often, at most, terms patched past it are read again (see #termsToRead). */
export interface KnowledgeTermLimits { maxNodes: number, rereadMs: number }
const TERM_LIMITS: KnowledgeTermLimits = { maxNodes: VOCABULARY_MAX_NODES, rereadMs: 60_000 }

/** The index's terms with the chunks holding each, most frequent first; the chunks holding one term (KnowledgeTerms). */
const TERMS_BY_FREQUENCY = 'SELECT term, doc FROM fts_vocab ORDER BY doc DESC, term'
const TERM_COUNT = 'SELECT doc FROM fts_vocab WHERE term = ?'

/** The text of a chunk that its keyword score reads (see chunkWords). */
const wordsText = (title: string, section: string, text: string) => `${title} ${section} ${text}`

/**
 * `matrix` without the `deleted` rows and with the `inserted` chunks' vectors after the others (a new
 * chunk's rowid is above every other's), as reading it again would give; undefined, to be read
 * again, when that does not hold or a vector is of another size. Reading 10k vectors back took
 * 170 ms of the event loop after every write; copying them takes a few.
 */
function patchedMatrix (matrix: VectorMatrix, deleted: Set<number>, inserted: Array<{ rowid: number, vector?: Float32Array }>): VectorMatrix | undefined {
  const added = inserted.filter((c) => c.vector !== undefined) as Array<{ rowid: number, vector: Float32Array }>
  if (deleted.size === 0 && added.length === 0) return matrix
  const dimensions = matrix.rowids.length === 0 ? added[0]?.vector.length ?? 0 : matrix.dimensions
  const keep = matrix.rowids.flatMap((rowid, i) => deleted.has(rowid) ? [] : [i])
  const last = keep.length === 0 ? -Infinity : matrix.rowids[keep[keep.length - 1]!]!
  if (added.some((c, i) => c.vector.length !== dimensions || c.rowid <= (i === 0 ? last : added[i - 1]!.rowid))) return undefined
  const data = new Float32Array((keep.length + added.length) * dimensions)
  keep.forEach((from, to) => data.set(matrix.data.subarray(from * dimensions, (from + 1) * dimensions), to * dimensions))
  added.forEach((c, i) => data.set(c.vector, (keep.length + i) * dimensions))
  const rowids = [...keep.map((i) => matrix.rowids[i]!), ...added.map((c) => c.rowid)]
  return { rowids, data, dimensions, at: new Map(rowids.map((rowid, i) => [rowid, i])) }
}

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
  /** The file's data_version when derived things were last known to hold: it changes with another connection's commits only. */
  #dataVersion: number
  // Derived from the file, read when first needed and forgotten whenever it changes (#forgetWritten, #forgetDerived).
  #termIndex: KnowledgeTerms | undefined
  /** The terms were patched past the trie's budget: new words did not enter it (see #terms). */
  #termsInexact = false
  /** Terms being read between turns of the event loop (#readTerms), with the changes of writes meanwhile. */
  #termsReading: { changes: Array<Map<string, number>>, done: Promise<void> } | undefined
  /** Counts the times everything derived was forgotten: terms read across it are of an older file. */
  #generation = 0
  #vectors: VectorMatrix | undefined
  #chunkTotal: number | undefined
  readonly #kept = new KeptChunkWords()
  readonly #termLimits: KnowledgeTermLimits

  /** `termLimits` other than the defaults: for tests, which cannot fill a trie of 300,000 nodes quickly. */
  constructor (file: string, embedder: string, termLimits = TERM_LIMITS) {
    this.#termLimits = termLimits
    this.#db = openKnowledgeDatabase(file)
    this.#statements = statementCache(this.#db)
    this.#embedder = embedder
    // Nothing is derived yet; from here on, what this connection's own writes keep holds until another process writes.
    this.#dataVersion = this.#sql('PRAGMA data_version').pluck().get() as number
  }

  close () {
    this.#db.close()
  }

  /** Words of chunks kept between searches (see knowledge-words.ts). */
  get keptWords (): number {
    return this.#kept.words
  }

  async upsert (documents: PreparedKnowledge[]): Promise<void> {
    const now = new Date().toISOString()
    const written: WrittenChunks = { deleted: [], inserted: new Map() }
    this.#db.transaction(() => {
      for (const prepared of documents) this.#write(prepared, now, written)
    }).immediate()
    this.#forgetWritten(written)
  }

  async remove (id: string): Promise<boolean> {
    const written: WrittenChunks = { deleted: [], inserted: new Map() }
    const removed = this.#db.transaction(() => {
      const rowid = this.#sql('SELECT rowid FROM documents WHERE id = ?').pluck().get(id) as number | undefined
      if (rowid === undefined) return false
      this.#deleteChunks(rowid, written)
      this.#sql('DELETE FROM documents WHERE rowid = ?').run(rowid)
      return true
    }).immediate()
    if (removed) this.#forgetWritten(written)
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

  async list ({ limit, offset, kind }: { limit: number, offset: number, kind?: KnowledgeKind }): Promise<{ results: ListedKnowledge[], total: number }> {
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

  async search (query: KnowledgeQuery): Promise<ChunkHit[]> {
    this.#refresh()
    // Never read: this search waits for them. Past the trie's budget and a minute old: read again
    // while this and the next searches use the terms as they are (a failed reading is tried again
    // by a later search).
    if (this.#termIndex === undefined) await this.#readTerms()
    else if (this.#termsStale()) this.#readTerms().catch(() => {})
    // One read transaction: the vectors held in memory and the chunks they point to are of the same
    // commit, even when another process (the admin CLI) writes between the two.
    return this.#db.transaction(() => {
      this.#refresh()
      return this.#searchNow(query)
    })()
  }

  #searchNow (query: KnowledgeQuery): ChunkHit[] {
    const terms = this.#terms()
    const plan = planKnowledgeQuery(query.q, terms.vocabulary)
    if (plan === undefined || query.limit === 0) return []
    const keywordRows = this.#sql(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, ${COLUMN_WEIGHTS.join(', ')}), rowid LIMIT ?`)
      .pluck().all(plan.match, CANDIDATES) as number[]
    const candidates = new Map<number, Candidate>()
    keywordRows.forEach((rowid, rank) => candidates.set(rowid, { rowid, bm25Rank: rank, keyword: 0, semantic: 0 }))
    const ratio = query.hybrid?.semanticRatio ?? 0
    if (query.hybrid !== undefined && ratio > 0) {
      const { nearest, similarities } = this.#nearest(query.hybrid.vector, CANDIDATES)
      for (const [rowid, similarity] of nearest) {
        const known = candidates.get(rowid)
        if (known === undefined) candidates.set(rowid, { rowid, bm25Rank: Infinity, keyword: 0, semantic: similarity })
        else known.semantic = similarity
      }
      // Keyword candidates beyond the nearest still have a similarity: the scan measured every chunk.
      const { at } = this.#matrix()
      for (const c of candidates.values()) {
        const i = at.get(c.rowid)
        if (c.semantic === 0 && i !== undefined && similarities !== undefined) c.semantic = similarities[i]!
      }
    }
    const weights = wordWeights(plan, terms.chunksWith, this.#chunkCount(), (prefix) => terms.vocabulary.withPrefix(prefix, PREFIX_TERMS))
    const words = this.#wordsOf([...candidates.keys()])
    for (const c of candidates.values()) {
      const chunk = words.get(c.rowid)
      if (chunk !== undefined) c.keyword = keywordScore(plan, weights, chunk)
    }
    const ranked = rankCandidates([...candidates.values()], ratio, query.limit)
    const chunks = this.#chunks(ranked.map(({ rowid }) => rowid))
    return ranked.map(({ rowid, score }) => {
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

  #write ({ document, hash, chunks, vectors }: PreparedKnowledge, now: string, written: WrittenChunks) {
    const existing = this.#sql('SELECT rowid FROM documents WHERE id = ?').pluck().get(document.id) as number | undefined
    const fields = [document.kind, document.title, document.format ?? null, document.url ?? null, document.content, hash, vectors === undefined ? 'none' : this.#embedder, chunks.length, now]
    let rowid: number
    if (existing === undefined) {
      rowid = Number(this.#sql(`INSERT INTO documents (id, kind, title, format, url, content, hash, embedder, chunk_count, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(document.id, ...fields).lastInsertRowid)
    } else {
      rowid = existing
      this.#deleteChunks(rowid, written)
      this.#sql(`UPDATE documents SET kind = ?, title = ?, format = ?, url = ?, content = ?, hash = ?, embedder = ?, chunk_count = ?, updated_at = ?
        WHERE rowid = ?`).run(...fields, rowid)
    }
    const insertChunk = this.#sql('INSERT INTO chunks (doc, position, chunk_id, section, text, url, vector) VALUES (?, ?, ?, ?, ?, ?, ?)')
    const insertFts = this.#sql('INSERT INTO fts (rowid, title, section, text) VALUES (?, ?, ?, ?)')
    chunks.forEach((chunk, position) => {
      const vector = vectors?.[position]
      const chunkRowid = insertChunk.run(rowid, position, chunk.id, chunk.section, chunk.text, chunk.url ?? null, vector === undefined || vector === null ? null : vectorBytes(vector)).lastInsertRowid
      insertFts.run(chunkRowid, document.title, chunk.section, chunk.text)
      const inserted = Number(chunkRowid)
      written.inserted.set(inserted, { rowid: inserted, text: wordsText(document.title, chunk.section, chunk.text), ...(vector === undefined || vector === null ? {} : { vector }) })
    })
  }

  #deleteChunks (doc: number, written: WrittenChunks) {
    // Their text too, while the document still has its title: the terms they took are patched out after the write.
    const rows = this.#sql('SELECT c.rowid, d.title, c.section, c.text FROM chunks c JOIN documents d ON d.rowid = c.doc WHERE c.doc = ?')
      .all(doc) as Array<{ rowid: number, title: string, section: string, text: string }>
    const deleteFts = this.#sql('DELETE FROM fts WHERE rowid = ?')
    for (const { rowid } of rows) deleteFts.run(rowid)
    this.#sql('DELETE FROM chunks WHERE doc = ?').run(doc)
    for (const r of rows) {
      // A chunk this write inserted and deletes again was never there for what is derived from the file.
      if (!written.inserted.delete(r.rowid)) written.deleted.push({ rowid: r.rowid, text: wordsText(r.title, r.section, r.text) })
    }
  }

  /** The chunks with these rowids, with their document's fields. */
  #chunks (rowids: number[]) {
    const rows = this.#sql(`SELECT c.rowid, c.chunk_id, c.section, c.text, c.url, d.id AS document_id, d.kind, d.title
      FROM chunks c JOIN documents d ON d.rowid = c.doc WHERE c.rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rowids)) as Array<ChunkRow & { document_id: string, kind: KnowledgeKind, title: string }>
    return new Map(rows.map((r) => [r.rowid, r]))
  }

  /** The words of these chunks (those found), kept from earlier searches or read and kept now. */
  #wordsOf (rowids: number[]): Map<number, ChunkWords> {
    const words = new Map<number, ChunkWords>()
    const unread: number[] = []
    for (const rowid of rowids) {
      const kept = this.#kept.get(rowid)
      if (kept === undefined) unread.push(rowid)
      else words.set(rowid, kept)
    }
    if (unread.length === 0) return words
    for (const c of this.#chunks(unread).values()) words.set(c.rowid, this.#kept.keep(c.rowid, chunkWords(wordsText(c.title, c.section, c.text))))
    return words
  }

  /**
   * The `k` chunks nearest to `vector`, best first (the lower rowid first among equals), with their
   * similarity, by an exact scan; and the similarity of every chunk, at its place in the matrix
   * (none when `vector` is not of the stored vectors' size).
   */
  #nearest (vector: Float32Array, k: number): { nearest: Array<[number, number]>, similarities?: Float64Array } {
    const matrix = this.#matrix()
    if (matrix.dimensions !== vector.length) return { nearest: [] }
    const similarities = similaritiesTo(vector, matrix.data)
    return { nearest: highest(similarities, k).map((i) => [matrix.rowids[i]!, similarities[i]!]), similarities }
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

  /**
   * Whether the terms, patched past the trie's budget, were read a minute ago or more. Past its
   * budget a write's new words are matched as typed only; reading every term again would put the
   * most frequent in the trie, but at a million words that takes 300-700 ms: at most once a minute,
   * not after every write.
   */
  #termsStale (): boolean {
    return this.#termIndex !== undefined && this.#termsInexact && Date.now() - this.#termIndex.readAt >= this.#termLimits.rereadMs
  }

  /**
   * Reads the terms between turns of the event loop (KnowledgeTerms.readBetweenTurns), one reading
   * for all the searches that wait for it. The writes made meanwhile are applied to it in the step
   * that puts it to use, and from then on patch it as any write does. What forgets everything derived
   * meanwhile (another process's write, a failed patch) discards it: a search then reads the terms
   * in one go (#terms).
   */
  async #readTerms (): Promise<void> {
    if (this.#termsReading === undefined) {
      const changes: Array<Map<string, number>> = []
      const generation = this.#generation
      const reading = KnowledgeTerms.readBetweenTurns(this.#sql(TERMS_BY_FREQUENCY), this.#sql(TERM_COUNT), this.#termLimits.maxNodes)
      const done = reading.then((terms) => {
        this.#termsReading = undefined
        if (this.#generation !== generation) return
        let exact = true
        for (const delta of changes) exact = terms.patch(delta) && exact
        this.#termIndex = terms
        this.#termsInexact = !exact
      }, (err: unknown) => {
        this.#termsReading = undefined
        throw err
      })
      this.#termsReading = { changes, done }
    }
    await this.#termsReading.done
  }

  #terms (): KnowledgeTerms {
    if (this.#termIndex === undefined) {
      this.#termIndex = KnowledgeTerms.read(this.#sql(TERMS_BY_FREQUENCY), this.#sql(TERM_COUNT), this.#termLimits.maxNodes)
      this.#termsInexact = false
    }
    return this.#termIndex
  }

  #chunkCount (): number {
    this.#chunkTotal ??= this.#sql('SELECT count(*) FROM chunks').pluck().get() as number
    return this.#chunkTotal
  }

  /** Another process (the admin CLI) may have written to the file: what is derived from it is then read again. */
  #refresh () {
    const version = this.#sql('PRAGMA data_version').pluck().get() as number
    if (version === this.#dataVersion) return
    this.#dataVersion = version
    this.#forgetDerived()
  }

  /**
   * After a write of this connection (committed): the terms and the vectors are patched with the
   * chunks it wrote and deleted (see KnowledgeTerms, patchedMatrix), the chunk count is read again
   * when next needed; the words
   * of chunks it did not touch still hold, and those of the chunks it wrote are kept now, while their
   * text is at hand (tokenizing a search's new candidates was most of its time beyond SQLite's); a
   * deleted chunk's words go, as its rowid may be given to a new chunk.
   */
  #forgetWritten ({ deleted, inserted: insertedById }: WrittenChunks) {
    const inserted = [...insertedById.values()]
    try {
      if (this.#termIndex !== undefined || this.#termsReading !== undefined) {
        const delta = ftsTermCounts(this.#db, inserted.map((c) => c.text))
        for (const [term, chunks] of ftsTermCounts(this.#db, deleted.map((c) => c.text))) delta.set(term, (delta.get(term) ?? 0) - chunks)
        if (this.#termIndex?.patch(delta) === false) this.#termsInexact = true
        this.#termsReading?.changes.push(delta)
      }
      if (this.#vectors !== undefined) this.#vectors = patchedMatrix(this.#vectors, new Set(deleted.map((c) => c.rowid)), inserted)
    } catch {
      // The write is committed and stays so: what could not be patched is read again from the file
      // by the next search, as after another process's write (failing the write would make its
      // caller believe nothing was stored).
      this.#generation++
      this.#termIndex = undefined
      this.#vectors = undefined
    }
    this.#chunkTotal = undefined
    for (const { rowid } of deleted) this.#kept.forget(rowid)
    for (const { rowid, text } of inserted) this.#kept.keep(rowid, chunkWords(text))
  }

  #forgetDerived () {
    this.#generation++
    this.#termIndex = undefined
    this.#termsInexact = false
    this.#vectors = undefined
    this.#chunkTotal = undefined
    this.#kept.clear()
  }

  /** Statements are compiled once per SQL text. */
  #sql (text: string): Statement {
    return this.#statements(text)
  }
}

/**
 * The places of the `k` highest scores, highest first, the earlier place first among equals: what
 * sorting every place by score would give, without sorting them all (a place enters the list only
 * when it beats the k-th).
 */
function highest (scores: Float64Array, k: number): number[] {
  const places: number[] = []
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!
    if (places.length === k && !(score > scores[places[k - 1]!]!)) continue
    let at = places.length
    while (at > 0 && scores[places[at - 1]!]! < score) at--
    places.splice(at, 0, i)
    if (places.length > k) places.pop()
  }
  return places
}
