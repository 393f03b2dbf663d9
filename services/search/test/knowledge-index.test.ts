import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import type { KnowledgeIndex, KnowledgeQuery, PreparedKnowledge } from '../src/engine/port.js'
import { EmbeddedKnowledgeIndex } from '../src/engines/embedded/knowledge-index.js'
import { CANDIDATES, COLUMN_WEIGHTS, PREFIX_TERMS, keywordScore, planKnowledgeQuery, rankCandidates, wordWeights, type Candidate } from '../src/engines/embedded/knowledge-ranking.js'
import { KeptChunkWords, MAX_KEPT_WORDS } from '../src/engines/embedded/knowledge-words.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { ingestKnowledge, storeKnowledge } from '../src/knowledge/ingest.js'
import { validateKnowledgeBatch } from '../src/knowledge/validate.js'
import { processQuery } from '../src/text.js'

// The embedded knowledge engine keeps what it derives from its file between searches (the terms and
// their chunk counts, the number of chunks, the vectors, each chunk's words) and picks the nearest
// vectors without sorting them all. Its hits must be exactly those of the plain reading below, which
// derives everything from the file again for every search, also after writes of its own and of
// another process (the admin CLI), including writes that give new chunks the rowids of deleted ones.

const EMBEDDER = 'test-embedder'
const DIMENSIONS = 8
const WORDS = ['shipping', 'delivery', 'returns', 'refund', 'warranty', 'parcel', 'courier', 'invoice', 'voucher',
  'account', 'password', 'battery', 'charger', 'mattress', 'assembly', 'international', 'customs', 'subscription',
  'express', 'standard', 'damaged', 'original', 'café', 'Größe', 'naïve', 'œuvre', 'ﬁnish', 'two', 'days', 'free',
  'how', 'long', 'does', 'it', 'take', 'takes', 'cost', 'costs', 'the', 'a', 'of', 'your', 'within', '14', '2024']

/** mulberry32: the same pages and queries on every run. */
function random (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}
const next = random(7)
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ')

const page = (id: string) => ({
  id,
  title: `${words(2)} ${id}`,
  content: [1, 2, 3, 4].map((s) => `## ${words(2)} ${s}\n\n${words(120)}.\n`).join('\n')
})

/** Few distinct vectors (many chunks share one, so similarities tie), unit length, chosen by the text. */
const VECTORS = Array.from({ length: 12 }, () => {
  const v = Float32Array.from({ length: DIMENSIONS }, () => next() - 0.5)
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
})
const textVector = (text: string) => VECTORS[[...text].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % VECTORS.length]!
const embedder: Embedder = { dimensions: DIMENSIONS, embed: async (texts) => texts.map(textVector) }

/**
 * The search as the plain reading of the rules in knowledge-ranking.ts, from everything the file
 * holds, read again for each state of the file: every chunk tokenized, every similarity sorted.
 */
function plainReading (db: Database.Database): (query: KnowledgeQuery) => Array<{ documentId: string, chunkId: string, score: number }> {
  const vocabulary = new Vocabulary(db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[])
  const fts = db.prepare(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, ${COLUMN_WEIGHTS.join(', ')}), rowid LIMIT ?`).pluck()
  const stored = db.prepare(`SELECT c.rowid, c.vector FROM chunks c JOIN documents d ON d.rowid = c.doc
    WHERE c.vector IS NOT NULL AND d.embedder = ? ORDER BY c.rowid`).all(EMBEDDER) as Array<{ rowid: number, vector: Buffer }>
  const vectors = stored.map((r) => [r.rowid, new Float32Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength))] as const)
  const chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number
  const chunksWith = db.prepare('SELECT doc FROM fts_vocab WHERE term = ?').pluck()
  const rows = db.prepare('SELECT c.rowid, c.chunk_id, c.section, c.text, d.id AS document_id, d.title FROM chunks c JOIN documents d ON d.rowid = c.doc')
    .all() as Array<{ rowid: number, chunk_id: string, section: string, text: string, document_id: string, title: string }>
  const byRowid = new Map(rows.map((r) => [r.rowid, r]))
  return (query) => {
    const plan = planKnowledgeQuery(query.q, vocabulary)
    if (plan === undefined || query.limit === 0) return []
    const candidates = new Map<number, Candidate>()
    ;(fts.all(plan.match, CANDIDATES) as number[]).forEach((rowid, rank) => candidates.set(rowid, { rowid, bm25Rank: rank, keyword: 0, semantic: 0 }))
    const ratio = query.hybrid?.semanticRatio ?? 0
    if (query.hybrid !== undefined && ratio > 0) {
      const vector = query.hybrid.vector
      const similarity = new Map(vectors.map(([rowid, v]) => [rowid, v.reduce((dot, x, d) => dot + x * vector[d]!, 0)]))
      const nearest = [...similarity].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, CANDIDATES)
      for (const [rowid, s] of nearest) {
        const known = candidates.get(rowid)
        if (known === undefined) candidates.set(rowid, { rowid, bm25Rank: Infinity, keyword: 0, semantic: s })
        else known.semantic = s
      }
      for (const c of candidates.values()) if (c.semantic === 0 && similarity.has(c.rowid)) c.semantic = similarity.get(c.rowid)!
    }
    const weights = wordWeights(plan, (term) => (chunksWith.get(term) as number | undefined) ?? 0, chunks, (prefix) => vocabulary.withPrefix(prefix, PREFIX_TERMS))
    for (const c of candidates.values()) {
      const row = byRowid.get(c.rowid)!
      c.keyword = keywordScore(plan, weights, `${row.title} ${row.section} ${row.text}`)
    }
    return rankCandidates([...candidates.values()], ratio, query.limit).map(({ rowid, score }) => ({ documentId: byRowid.get(rowid)!.document_id, chunkId: byRowid.get(rowid)!.chunk_id, score }))
  }
}

const queries: KnowledgeQuery[] = []
for (let i = 0; i < 40; i++) {
  let q = words(1 + Math.floor(next() * 4))
  if (i % 3 === 1) q = q.replace(/(\p{L})\p{L}(\p{L}+)$/u, '$1$2') // a typo in the last word
  if (i % 3 === 2) q = q.slice(0, Math.max(2, q.length - 3)) // the last word being typed
  const vector = i % 2 === 0 ? pick(VECTORS) : Float32Array.from({ length: DIMENSIONS }, () => next() - 0.5).map((x, _, v) => x / Math.hypot(...v))
  for (const limit of [5, 50]) {
    queries.push({ q: processQuery(q), limit })
    queries.push({ q: processQuery(q), limit, hybrid: { semanticRatio: 0.5, vector } })
    queries.push({ q: processQuery(q), limit, hybrid: { semanticRatio: 1, vector } })
  }
}

// Words only one page will hold, as typed, with a typo and as a prefix: they enter the terms with it and leave with it.
for (const q of ['quokkas refund', 'quokas', 'zephyrine delivery', 'zephyrin', 'zeph', 'delivery zephyri']) {
  queries.push({ q, limit: 5 }, { q, limit: 50, hybrid: { semanticRatio: 0.5, vector: pick(VECTORS) } })
}

async function sameAsPlain (t: Test, index: KnowledgeIndex, db: Database.Database, when: string) {
  const engine = []
  for (const query of queries) engine.push((await index.search(query)).map((hit) => ({ documentId: hit.documentId, chunkId: hit.chunkId, score: hit.score })))
  const plain = queries.map(plainReading(db))
  t.ok(plain.filter((hits) => hits.length > 0).length > queries.length / 2, `${when}: most queries find something`)
  t.ok(plain.some((hits) => hits.length === 50), `${when}: some fill a limit of 50`)
  t.same(engine, plain, `${when}: the engine's hits are the plain reading's, in order, with the same scores`)
}

t.test('the knowledge engine finds exactly what the plain reading of its rules finds, before and after writes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'knowledge-index-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'project.knowledge.sqlite')
  const index = new EmbeddedKnowledgeIndex(file, EMBEDDER)
  const db = new Database(file, { readonly: true })
  t.teardown(() => { db.close(); index.close() })

  const ids = Array.from({ length: 150 }, (_, i) => `page-${String(i).padStart(3, '0')}`)
  await ingestKnowledge(index, ids.map(page), embedder)
  const written = index.keptWords
  t.ok(written > 0, 'a new index keeps the words of the chunks it writes')
  await index.search(queries[0]!)
  t.equal(index.keptWords, written, 'its first search tokenizes none of them again')
  t.ok((db.prepare('SELECT count(*) FROM chunks').pluck().get() as number) > 2 * CANDIDATES, 'more chunks than candidates on either side')
  await sameAsPlain(t, index, db, 'first searches')
  await sameAsPlain(t, index, db, 'searched again, from what the engine kept')
  t.ok(index.keptWords > 0, 'the words of the chunks searched are kept')

  const keptBefore = index.keptWords
  await ingestKnowledge(index, ids.slice(0, 20).map(page), embedder)
  const keptAfter = index.keptWords
  t.ok(keptAfter > 0 && keptAfter !== keptBefore, 'a write keeps the words of the chunks it wrote, not those it replaced')
  await index.search(queries[0]!)
  t.ok(index.keptWords >= keptAfter, 'and the next search still has them')
  for (const id of ids.slice(20, 30)) await index.remove(id)
  await sameAsPlain(t, index, db, 'after its own writes')

  const rare = { id: 'page-rare', title: 'Zephyrine care', content: '## Quokkas\n\nQuokkas and zephyrines get a refund on delivery.\n' }
  await ingestKnowledge(index, [rare], embedder)
  t.ok((await index.search({ q: 'quokas', limit: 5 })).some((hit) => hit.documentId === 'page-rare'), 'a new word is found through a typo')
  await sameAsPlain(t, index, db, 'after a page of words no other page holds')
  await index.remove('page-rare')
  t.same(await index.search({ q: 'quokas', limit: 5 }), [], 'and not after its page is gone')
  await sameAsPlain(t, index, db, 'after that page\'s removal')

  // One batch holding a page twice, another between (a crawl can deliver a page twice; the API's
  // batches keep only the last): the second copy deletes the chunks the first inserted.
  await storeKnowledge(index, validateKnowledgeBatch([page('page-twice')]).concat(validateKnowledgeBatch([page('page-between'), page('page-twice')])), embedder)
  await sameAsPlain(t, index, db, 'after a batch holding one page twice')

  // Its own write gives new chunks the rowids of chunks it deleted: their words are the new ones.
  const lastOwn = db.prepare('SELECT max(rowid) FROM chunks').pluck().get()
  await index.remove(db.prepare('SELECT d.id FROM chunks c JOIN documents d ON d.rowid = c.doc ORDER BY c.rowid DESC LIMIT 1').pluck().get() as string)
  await ingestKnowledge(index, [page('page-own')], embedder)
  t.equal(db.prepare('SELECT max(rowid) FROM chunks').pluck().get(), lastOwn, 'the new chunks took the deleted ones\' rowids')
  await sameAsPlain(t, index, db, 'after its own write reused rowids')

  // Another process writes: the last page's chunks are deleted and a new page's take their rowids.
  const other = new EmbeddedKnowledgeIndex(file, EMBEDDER)
  t.teardown(() => other.close())
  const last = db.prepare('SELECT max(rowid) FROM chunks').pluck().get()
  await other.remove(db.prepare('SELECT d.id FROM chunks c JOIN documents d ON d.rowid = c.doc ORDER BY c.rowid DESC LIMIT 1').pluck().get() as string)
  await ingestKnowledge(other, [page('page-new')], embedder)
  t.equal(db.prepare('SELECT max(rowid) FROM chunks').pluck().get(), last, 'the new chunks took the deleted ones\' rowids')
  await sameAsPlain(t, index, db, 'after another process\'s writes')
})

t.test('a first search reads the terms between turns of the event loop, with the writes made meanwhile', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'knowledge-index-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'project.knowledge.sqlite')
  const index = new EmbeddedKnowledgeIndex(file, EMBEDDER)
  const other = new EmbeddedKnowledgeIndex(file, EMBEDDER)
  const db = new Database(file, { readonly: true })
  t.teardown(() => { db.close(); index.close(); other.close() })
  await ingestKnowledge(index, Array.from({ length: 40 }, (_, i) => page(`page-${i}`)), embedder)

  /** A write as storeKnowledge prepares it, to be made later in one synchronous step. */
  const prepared = async (document: { id: string, title: string, content: string }) => {
    let documents: PreparedKnowledge[] = []
    const capture = { storedHashes: async () => new Map(), upsert: async (d: PreparedKnowledge[]) => { documents = d }, count: async () => 0 } as unknown as KnowledgeIndex
    await storeKnowledge(capture, validateKnowledgeBatch([document]), embedder)
    return documents
  }
  const quokkas = await prepared({ id: 'page-quokkas', title: 'Quokka care', content: 'Quokkas get a refund on delivery.' })
  const zephyrs = await prepared({ id: 'page-zephyrs', title: 'Zephyrine care', content: 'Zephyrines get a refund on delivery.' })

  let turned = false
  setImmediate(() => { turned = true })
  const first = index.search({ q: 'quokas', limit: 5 })
  // Committed after the terms' rows were read and before the trie is built from them.
  await index.upsert(quokkas)
  const hits = await first
  t.ok(turned, 'the event loop turned while the terms were read')
  t.same(hits.map((hit) => hit.documentId), ['page-quokkas'], 'the write made meanwhile is in the terms: its new word is found through a typo')

  // An empty index: its reading takes no turn, and a write queued before the search's step that puts
  // it to use is in it all the same.
  const empty = new EmbeddedKnowledgeIndex(join(dir, 'empty.knowledge.sqlite'), EMBEDDER)
  t.teardown(() => empty.close())
  const writing = Promise.resolve().then(async () => await empty.upsert(quokkas))
  const firstOfEmpty = empty.search({ q: 'quokas', limit: 5 })
  await Promise.all([writing, firstOfEmpty])
  t.same((await empty.search({ q: 'quokas', limit: 5 })).map((hit) => hit.documentId), ['page-quokkas'], 'the write is in the terms')

  // Another process's write meanwhile: what was read is of an older file, and is read again.
  await index.remove('page-quokkas')
  const reopened = new EmbeddedKnowledgeIndex(file, EMBEDDER)
  t.teardown(() => reopened.close())
  const again = reopened.search({ q: 'zephyrin', limit: 5 })
  await other.upsert(zephyrs)
  // A second search meanwhile sees the other process's write and forgets what was derived: the
  // reading under way, of the file before that write, must not be put to use after it.
  const second = reopened.search({ q: 'zephyrin', limit: 5 })
  t.same((await again).map((hit) => hit.documentId), ['page-zephyrs'], 'another process\'s write meanwhile is found too')
  t.same((await second).map((hit) => hit.documentId), ['page-zephyrs'], 'by the search that noticed it as well')
  t.same((await reopened.search({ q: 'zephyrin', limit: 5 })).map((hit) => hit.documentId), ['page-zephyrs'], 'and by the next one')
  t.same(await reopened.search({ q: 'quokas', limit: 5 }), [], 'and the removed page\'s word is gone')
  await sameAsPlain(t, reopened, db, 'after terms read between turns')
  await sameAsPlain(t, index, db, 'the first index, after terms read between turns')
})

t.test('terms patched past the trie\'s budget are read again at most once a minute: a frequent new word then enters it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'knowledge-index-test-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  // A budget of 200 nodes against some 300 words of one chunk each (the default is 300,000 nodes).
  const index = new EmbeddedKnowledgeIndex(join(dir, 'project.knowledge.sqlite'), EMBEDDER, { maxNodes: 200, rereadMs: 60_000 })
  t.teardown(() => index.close())
  const letters = random(11)
  const rare = () => Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(letters() * 26))).join('')
  await ingestKnowledge(index, Array.from({ length: 30 }, (_, i) => ({ id: `rare-${i}`, title: rare(), content: Array.from({ length: 10 }, rare).join(' ') })), embedder)
  const readAt = Date.now()
  await index.search({ q: 'anything', limit: 5 })

  // A new word in five chunks, more than any other holds; the trie is full, so the patch leaves it out.
  await ingestKnowledge(index, Array.from({ length: 5 }, (_, i) => ({ id: `quokkas-${i}`, title: `Quokkas ${i}`, content: `Quokkas eat leaves ${i}.` })), embedder)
  const found = async (q: string) => (await index.search({ q, limit: 10 })).map((hit) => hit.documentId).sort()
  const quokkaPages = Array.from({ length: 5 }, (_, i) => `quokkas-${i}`)
  t.same(await found('quokkas'), quokkaPages, 'matched as typed')
  t.same(await found('quokas'), [], 'past the budget, not through a typo')

  const now = Date.now
  t.teardown(() => { Date.now = now })
  Date.now = () => readAt + 59_000
  t.same(await found('quokas'), [], 'not read again within the minute')
  await new Promise((resolve) => setImmediate(resolve))
  t.same(await found('quokas'), [], 'nor after a turn of the event loop')
  Date.now = () => readAt + 61_000
  t.same(await found('quokas'), [], 'after it, the search that starts the reading does not wait for it')
  // The reading takes one turn of the event loop per 2,000 terms: one here.
  await new Promise((resolve) => setImmediate(resolve))
  t.same(await found('quokas'), quokkaPages, 'read again: the most frequent word is in the trie')
})

t.test('kept words: past the cap, the chunks searched least recently go first', async (t) => {
  const kept = new KeptChunkWords()
  const words = Array.from({ length: 1000 }, (_, i) => `word${i}`)
  for (let rowid = 0; rowid < MAX_KEPT_WORDS / words.length; rowid++) kept.keep(rowid, words)
  t.equal(kept.words, MAX_KEPT_WORDS, 'up to the cap, every chunk is kept')
  t.ok(kept.get(0) !== undefined, 'the first chunk, searched again')
  kept.keep(-1, words)
  t.equal(kept.words, MAX_KEPT_WORDS, 'one more chunk: one goes')
  t.equal(kept.get(1), undefined, 'the one searched least recently')
  t.same(kept.get(0), words, 'not the one searched again')
  kept.clear()
  t.equal(kept.words, 0)
})
