// Embedded engine only: the SQLite engine's compact vector codes for nearest-neighbour search.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { openDatabase, prepareVectors, type Statement } from '../src/engines/embedded/database.js'
import { VectorCodes, deleteVector, storeVector } from '../src/engines/embedded/vector-codes.js'

const DIMENSIONS = 64

/** A seeded stream of unit vectors, clustered like real embeddings (a shared direction plus noise). */
function vectors (count: number, seed: number): Float32Array[] {
  let state = seed
  const random = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 2 ** 32 - 0.5 }
  const shared = Float32Array.from({ length: DIMENSIONS }, random)
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: DIMENSIONS }, (_, d) => shared[d]! * 0.5 + random())
    const norm = Math.hypot(...v)
    return v.map((x) => x / norm)
  })
}

function exactNearest (all: Map<number, Float32Array>, query: Float32Array, k: number, allowed?: (rowid: number) => boolean): number[] {
  const dot = (a: Float32Array) => a.reduce((sum, x, d) => sum + x * query[d]!, 0)
  return [...all].filter(([rowid]) => allowed?.(rowid) ?? true)
    .map(([rowid, v]) => ({ rowid, score: dot(v) }))
    .sort((a, b) => b.score - a.score).slice(0, k).map((s) => s.rowid)
}

function fixture (t: { teardown: (fn: () => unknown) => void }, count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'vector-codes-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = openDatabase(join(dir, 'index.sqlite'))
  t.teardown(() => db.close())
  prepareVectors(db, 'test-model', DIMENSIONS)
  const statements = new Map<string, Statement>()
  const sql = (text: string) => statements.get(text) ?? statements.set(text, db.prepare(text)).get(text)!
  const stored = new Map<number, Float32Array>()
  db.transaction(() => vectors(count, 7).forEach((v, i) => { storeVector(sql, i + 1, v); stored.set(i + 1, v) }))()
  return { db, sql, stored }
}

t.test('finds the exact nearest neighbours when the candidates cover them', async (t) => {
  const { db, stored } = fixture(t, 5000)
  const codes = new VectorCodes(db, DIMENSIONS)
  let found = 0
  const queries = vectors(20, 99)
  for (const query of queries) {
    const expected = exactNearest(stored, query, 10)
    const got = codes.nearest(query, null, 10)
    t.equal(got.length, 10)
    found += got.filter((r) => expected.includes(r)).length
  }
  // The int8 re-rank may swap near ties at the edge of the top 10, nothing more.
  t.ok(found / (queries.length * 10) >= 0.95, `recall@10 ${found / (queries.length * 10)}`)
})

t.test('returns only allowed documents, all of them when fewer than k are allowed', async (t) => {
  const { db, stored } = fixture(t, 3000)
  const codes = new VectorCodes(db, DIMENSIONS)
  const allowed = new Uint8Array(3001)
  for (const rowid of [5, 17, 2999]) allowed[rowid] = 1
  const [query] = vectors(1, 3)
  const got = codes.nearest(query!, allowed, 10)
  t.same(got, exactNearest(stored, query!, 10, (r) => allowed[r] === 1))
  t.same([...got].sort((a, b) => a - b), [5, 17, 2999])
  t.same(codes.nearest(query!, new Uint8Array(3001), 10), [], 'nothing allowed, nothing found')
})

t.test('a deleted vector is no longer found once the codes are reloaded', async (t) => {
  const { db, sql, stored } = fixture(t, 200)
  const [query] = vectors(1, 11)
  const [best] = exactNearest(stored, query!, 1)
  t.equal(new VectorCodes(db, DIMENSIONS).nearest(query!, null, 1)[0], best)
  deleteVector(sql, best!)
  t.not(new VectorCodes(db, DIMENSIONS).nearest(query!, null, 1)[0], best)
  t.equal(db.prepare('SELECT count(*) FROM vectors').pluck().get(), 199, 'the float vector went too')
})
