import type { Db, Statement } from './database.js'
import type { DocSet } from './filter-index.js'
import { patchList, rowidMarks } from './changes.js'

/**
 * Nearest-neighbour search over compact codes of the stored vectors. sqlite-vec's exact KNN reads
 * every float vector (about 42 ms at 50k × 512 on this project's machines), and its point lookups
 * cost about 40 µs each, too slow to re-rank from. So each vector also gets two codes, written
 * beside it in a plain table:
 * - `bits`: the sign of each dimension (64 bytes for 512 dimensions), kept in memory and compared
 *   to the query's by Hamming distance (about 2 ms for 50k documents);
 * - `codes`: the vector scaled to int8 (one byte per dimension), read back only for the best
 *   candidates of the first pass and scored against the float query by cosine.
 * Measured on the benchmark catalog, the 1,000 best by Hamming distance hold 99% of the exact top 40.
 */
export function encodeVector (vector: Float32Array): { bits: Buffer, codes: Buffer } {
  const words = new Uint32Array(Math.ceil(vector.length / 32))
  let largest = 0
  for (let d = 0; d < vector.length; d++) {
    const x = vector[d]!
    if (x > 0) words[d >> 5]! |= 1 << (d & 31)
    largest = Math.max(largest, Math.abs(x))
  }
  const scale = largest === 0 ? 1 : largest / 127
  const codes = new Int8Array(vector.length)
  for (let d = 0; d < vector.length; d++) codes[d] = Math.round(vector[d]! / scale)
  // The scale is not kept: cosine, the only use of the codes, does not depend on it.
  const bits = Buffer.alloc(words.length * 4)
  words.forEach((word, w) => bits.writeUInt32LE(word, w * 4))
  return { bits, codes: Buffer.from(codes.buffer) }
}

/** Compiles (or returns the cached) statement for a SQL text. */
type Sql = (text: string) => Statement

/** Writes a document's vector: the float vector in sqlite-vec, its codes beside it. */
export function storeVector (sql: Sql, rowid: number, vector: Float32Array) {
  const { bits, codes } = encodeVector(vector)
  sql('INSERT INTO vectors (rowid, embedding) VALUES (?, ?)').run(BigInt(rowid), vector)
  sql('INSERT OR REPLACE INTO vector_codes (rowid, bits, codes) VALUES (?, ?, ?)').run(rowid, bits, codes)
}

export function deleteVector (sql: Sql, rowid: number) {
  sql('DELETE FROM vectors WHERE rowid = ?').run(BigInt(rowid))
  sql('DELETE FROM vector_codes WHERE rowid = ?').run(rowid)
}

/** How many candidates of the Hamming pass are re-ranked, per result wanted (and at least). */
const CANDIDATES_PER_RESULT = 10
const MIN_CANDIDATES = 1000

function popcount (x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  x = (x + (x >>> 4)) & 0x0f0f0f0f
  return Math.imul(x, 0x01010101) >>> 24
}

/** The sign codes of one index's vectors, in memory (patched after each write, see apply()). */
export class VectorCodes {
  readonly #db: Db
  readonly #words: number
  #bits: Uint32Array
  #rowids: Int32Array
  readonly #readCodes: Statement

  constructor (db: Db, dimensions: number) {
    this.#db = db
    this.#words = Math.ceil(dimensions / 32)
    this.#readCodes = db.prepare('SELECT rowid, codes FROM vector_codes WHERE rowid IN (SELECT value FROM json_each(?))')
    const maxRowid = (db.prepare('SELECT max(rowid) FROM vector_codes').pluck().get() as number | null) ?? 0
    this.#bits = new Uint32Array((maxRowid + 1) * this.#words)
    const rowids: number[] = []
    for (const row of db.prepare('SELECT rowid, bits FROM vector_codes').iterate() as IterableIterator<{ rowid: number, bits: Buffer }>) {
      // Codes of another vector size (left from before a change of embedder) are not comparable.
      if (row.bits.length !== this.#words * 4) continue
      for (let w = 0; w < this.#words; w++) this.#bits[row.rowid * this.#words + w] = row.bits.readUInt32LE(w * 4)
      rowids.push(row.rowid)
    }
    this.#rowids = Int32Array.from(rowids)
  }

  /**
   * Brings the codes up to date with the stored vectors of `rowids` (ascending): the codes of those
   * documents are read again, or forgotten when they have none now. Idempotent.
   */
  apply (rowids: number[]) {
    if (rowids.length === 0) return
    const marks = rowidMarks(rowids)
    const rows = this.#db.prepare('SELECT rowid, bits FROM vector_codes WHERE rowid IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(rowids)) as Array<{ rowid: number, bits: Buffer }>
    const words = this.#words
    const usable = rows.filter((row) => row.bits.length === words * 4)
    const maxRowid = usable.reduce((m, row) => Math.max(m, row.rowid), 0)
    if ((maxRowid + 1) * words > this.#bits.length) {
      const grown = new Uint32Array(Math.max((maxRowid + 1) * words, this.#bits.length * 2))
      grown.set(this.#bits)
      this.#bits = grown
    }
    for (const row of usable) {
      for (let w = 0; w < words; w++) this.#bits[row.rowid * words + w] = row.bits.readUInt32LE(w * 4)
    }
    this.#rowids = patchList(this.#rowids, marks, usable.map((row) => row.rowid)).sort()
  }

  /** The `k` documents nearest to `vector` (by cosine) among those `allowed` (all when null), closest first. */
  nearest (vector: Float32Array, allowed: DocSet | null, k: number): number[] {
    const candidates = this.#closestByBits(vector, allowed, Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT))
    return this.#rerank(vector, candidates).slice(0, k)
  }

  /** Up to about `wanted` allowed documents with the fewest sign disagreements with the query. */
  #closestByBits (vector: Float32Array, allowed: DocSet | null, wanted: number): number[] {
    const words = this.#words
    const query = new Uint32Array(words)
    for (let d = 0; d < vector.length; d++) if (vector[d]! > 0) query[d >> 5]! |= 1 << (d & 31)
    const rowids = this.#rowids
    const distance = new Uint16Array(rowids.length)
    const histogram = new Uint32Array(words * 32 + 1)
    const bits = this.#bits
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!
      if (allowed !== null && allowed[rowid] !== 1) { distance[i] = 0xffff; continue }
      let sum = 0
      const at = rowid * words
      for (let w = 0; w < words; w++) sum += popcount(bits[at + w]! ^ query[w]!)
      distance[i] = sum
      histogram[sum]!++
    }
    // The smallest distance that lets `wanted` documents through: a counting sort, no full sort.
    let cut = 0
    for (let taken = 0; cut < histogram.length - 1 && taken + histogram[cut]! < wanted; cut++) taken += histogram[cut]!
    const out: number[] = []
    for (let i = 0; i < rowids.length; i++) if (distance[i]! <= cut) out.push(rowids[i]!)
    return out
  }

  #rerank (vector: Float32Array, candidates: number[]): number[] {
    return [...this.similarities(vector, candidates)]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([rowid]) => rowid)
  }

  /** Cosine similarity of each document's vector (as quantised) with `vector`; documents without one are left out. */
  similarities (vector: Float32Array, rowids: number[]): Map<number, number> {
    const out = new Map<number, number>()
    if (rowids.length === 0) return out
    const rows = this.#readCodes.all(JSON.stringify(rowids)) as Array<{ rowid: number, codes: Buffer }>
    let queryNorm = 0
    for (let d = 0; d < vector.length; d++) queryNorm += vector[d]! * vector[d]!
    for (const { rowid, codes } of rows) {
      const values = new Int8Array(codes.buffer, codes.byteOffset, codes.length)
      let dot = 0
      let norm = 0
      for (let d = 0; d < values.length; d++) {
        dot += vector[d]! * values[d]!
        norm += values[d]! * values[d]!
      }
      out.set(rowid, norm === 0 || queryNorm === 0 ? 0 : dot / Math.sqrt(norm * queryNorm))
    }
    return out
  }
}
