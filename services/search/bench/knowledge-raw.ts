// The raw baseline of `pnpm bench knowledge`: the two things the embedded knowledge engine asks of
// its index file for one search, done with nothing around them, on the same file and queries.
//  - Keyword: the FTS5 statement the engine runs, with the MATCH expression it builds
//    (planKnowledgeQuery, built here before timing: the plan is the engine's work, not SQLite's) and
//    the same ORDER BY bm25 … LIMIT CANDIDATES, through better-sqlite3 on a connection of its own.
//  - Vector: the exact cosine top-CANDIDATES over the same stored vectors, written as plainly as it
//    can be and still be what anyone would write for an exact scan: the vectors in one Float32Array
//    (read once, as the engine keeps them in memory), one loop of dot products (the vectors are unit
//    length, so a dot product is the cosine), and a sorted buffer of the best k into which a vector
//    is inserted only when it beats the k-th (rather than sorting all n scores: that would make the
//    baseline slower than the scan it stands for).
import Database from 'better-sqlite3'
import { CANDIDATES, COLUMN_WEIGHTS, planKnowledgeQuery } from '../src/engines/embedded/knowledge-ranking.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { processQuery } from '../src/text.js'

export interface RawKnowledge {
  /** The FTS5 statement for query `i`: the rowids of the best CANDIDATES chunks by bm25. */
  keyword: (i: number) => number[]
  /** The exact nearest CANDIDATES chunks to `vector`: their places in the matrix, best first. */
  vector: (vector: Float32Array) => number[]
  close: () => void
}

export function rawKnowledge (file: string, queries: string[]): RawKnowledge {
  const db = new Database(file, { readonly: true })
  const vocabulary = new Vocabulary(db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[])
  const matches = queries.map((q) => planKnowledgeQuery(processQuery(q), vocabulary)?.match)
  const fts = db.prepare(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, ${COLUMN_WEIGHTS.join(', ')}), rowid LIMIT ?`).pluck()

  const blobs = db.prepare('SELECT vector FROM chunks WHERE vector IS NOT NULL ORDER BY rowid').pluck().all() as Buffer[]
  const dimensions = blobs.length === 0 ? 0 : blobs[0]!.length / 4
  const matrix = new Float32Array(blobs.length * dimensions)
  blobs.forEach((blob, i) => matrix.set(new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)), i * dimensions))
  const rows = blobs.length

  return {
    keyword: (i) => matches[i] === undefined ? [] : fts.all(matches[i], CANDIDATES) as number[],
    vector (query) {
      const best: number[] = []
      const scores: number[] = []
      for (let row = 0; row < rows; row++) {
        let dot = 0
        for (let d = 0, at = row * dimensions; d < dimensions; d++) dot += query[d]! * matrix[at + d]!
        if (scores.length === CANDIDATES && dot <= scores[CANDIDATES - 1]!) continue
        let place = scores.length
        while (place > 0 && scores[place - 1]! < dot) place--
        scores.splice(place, 0, dot)
        best.splice(place, 0, row)
        if (scores.length > CANDIDATES) { scores.pop(); best.pop() }
      }
      return best
    },
    close: () => db.close()
  }
}
