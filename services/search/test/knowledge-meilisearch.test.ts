import t from 'tap'
import type { SearchResponse } from 'meilisearch'
import type { PreparedKnowledge } from '../src/engine/port.js'
import {
  chunkKey, chunkRecords, declaredDimensions, documentsFilter, hasWords, knowledgeHits, knowledgeSearchParams, knowledgeSettings, listQuery, staleChunksFilter, storedKnowledgeOf, summaryOf
} from '../src/engines/meilisearch/knowledge-translate.js'
import { storedHash } from '../src/engines/meilisearch/translate.js'

// The Meilisearch adapter of the knowledge index, checked translation by translation without a
// server, as the catalog's (meilisearch-translate.test.ts).

const prepared = (vectors?: Array<Float32Array | null>): PreparedKnowledge => ({
  document: { id: 'shipping', kind: 'page', title: 'Shipping', content: '# Shipping\n\n…', format: 'markdown', url: 'https://shop.example/shipping' },
  hash: 'h1',
  chunks: [
    { id: '0', section: 'Shipping', text: 'We ship to the EU.', url: 'https://shop.example/shipping#shipping' },
    { id: '1', section: 'Shipping › Costs', text: 'Free over 50 euros.', url: 'https://shop.example/shipping#costs' }
  ],
  ...(vectors === undefined ? {} : { vectors })
})

t.test('the knowledge index settings', async (t) => {
  t.same(knowledgeSettings({ id: 'use-lite:512', dimensions: 512 }), {
    searchableAttributes: ['title', 'section', 'text'],
    filterableAttributes: ['document_id', 'kind', 'position'],
    sortableAttributes: ['document_id', 'position'],
    embedders: { default: { source: 'userProvided', dimensions: 512 } }
  }, 'chunks searched by title, heading path and text; found and listed by document; our vectors')
  t.notOk('embedders' in knowledgeSettings({ id: 'none', dimensions: 512 }), 'no embedder declared while embeddings are off')
})

t.test('the vector size the index takes, from its embedders setting', async (t) => {
  t.equal(declaredDimensions({ default: { source: 'userProvided', dimensions: 512 } }), 512)
  t.equal(declaredDimensions({}), undefined, 'written while embeddings were off: none')
  t.equal(declaredDimensions(null), undefined)
  t.equal(declaredDimensions({ other: { source: 'userProvided', dimensions: 512 } }), undefined, 'another embedder is not ours')
  t.equal(declaredDimensions({ default: { source: 'openAi', model: 'text-embedding-3-small', dimensions: 512 } }), undefined, 'nor one Meilisearch computes')
})

t.test('a document becomes its chunks, the first standing for the document', async (t) => {
  const records = chunkRecords(prepared([Float32Array.from([0.5, -0.5]), null]), 'use-lite:512', '2026-01-01T00:00:00.000Z')
  t.same(records, [
    {
      id: chunkKey('shipping', '0'),
      document_id: 'shipping',
      chunk_id: '0',
      position: 0,
      kind: 'page',
      title: 'Shipping',
      section: 'Shipping',
      text: 'We ship to the EU.',
      url: 'https://shop.example/shipping#shipping',
      updated_at: '2026-01-01T00:00:00.000Z',
      content: '# Shipping\n\n…',
      format: 'markdown',
      document_url: 'https://shop.example/shipping',
      chunk_count: 2,
      _chatsearch: { hash: 'h1', embedder: 'use-lite:512' },
      _vectors: { default: [0.5, -0.5] }
    },
    {
      id: chunkKey('shipping', '1'),
      document_id: 'shipping',
      chunk_id: '1',
      position: 1,
      kind: 'page',
      title: 'Shipping',
      section: 'Shipping › Costs',
      text: 'Free over 50 euros.',
      url: 'https://shop.example/shipping#costs',
      updated_at: '2026-01-01T00:00:00.000Z',
      _vectors: { default: null }
    }
  ], 'a chunk whose text means nothing has null, Meilisearch\'s "no embedding"')
  const plain = chunkRecords(prepared(), 'use-lite:512', '2026-01-01T00:00:00.000Z')
  t.notOk(plain.some((r) => '_vectors' in r), 'embeddings off: no vectors')
  t.same(plain[0]!._chatsearch, { hash: 'h1', embedder: 'none' })
  t.equal(storedHash(plain[0]!, 'use-lite:512'), undefined, 'a document stored without vectors is embedded once embeddings are on')
  t.equal(storedHash(records[0]!, 'use-lite:512'), 'h1', 'an unchanged document embedded by this model is not written again')
  t.equal(storedHash(records[0]!, 'openai:x:3'), undefined, 'another model: written again')

  const long = 'x'.repeat(511)
  t.match(chunkKey(long, '12'), /^[0-9a-f]{40}-12$/, 'a key Meilisearch accepts whatever the id\'s length')
  t.not(chunkKey('a', '1'), chunkKey('b', '1'))
  t.not(chunkKey('a', '1'), chunkKey('a', '2'))
})

t.test('lookups, lists and reads', async (t) => {
  t.equal(documentsFilter(['a', 'b-2']), 'document_id IN ["a", "b-2"]')
  t.equal(documentsFilter(['a'], true), 'document_id IN ["a"] AND position = 0')
  // An upsert writes the new chunks over the old (same keys) and then deletes only what is past them.
  t.equal(staleChunksFilter([{ id: 'a', chunks: 3 }, { id: '7', chunks: 1 }]), '(document_id = "a" AND position >= 3) OR (document_id = "7" AND position >= 1)')
  t.same(listQuery({ limit: 20, offset: 40 }), {
    filter: 'position = 0',
    sort: ['document_id:asc'],
    fields: ['document_id', 'kind', 'title', 'document_url', 'chunk_count', 'updated_at'],
    limit: 20,
    offset: 40
  }, 'one entry per document (its first chunk), by id')
  t.equal(listQuery({ limit: 5, offset: 0, kind: 'faq' }).filter, 'position = 0 AND kind = "faq"')

  const records = chunkRecords(prepared([Float32Array.from([1, 0]), Float32Array.from([0, 1])]), 'e', '2026-01-01T00:00:00.000Z')
  t.same(summaryOf(records[0]!), { id: 'shipping', kind: 'page', title: 'Shipping', url: 'https://shop.example/shipping', chunks: 2, updatedAt: '2026-01-01T00:00:00.000Z' })
  t.same(storedKnowledgeOf(records), {
    id: 'shipping',
    kind: 'page',
    title: 'Shipping',
    content: '# Shipping\n\n…',
    format: 'markdown',
    url: 'https://shop.example/shipping',
    chunks: prepared().chunks,
    updatedAt: '2026-01-01T00:00:00.000Z'
  }, 'the document as sent, with its chunks')
  const faq = chunkRecords({ document: { id: 'f', kind: 'faq', title: 'Q?', content: 'A.' }, hash: 'h', chunks: [{ id: '0', section: '', text: 'A.' }] }, 'e', 't')
  t.same(storedKnowledgeOf(faq), { id: 'f', kind: 'faq', title: 'Q?', content: 'A.', chunks: [{ id: '0', section: '', text: 'A.' }], updatedAt: 't' }, 'no URL, no format: left out')
  t.same(summaryOf(faq[0]!), { id: 'f', kind: 'faq', title: 'Q?', chunks: 1, updatedAt: 't' })
})

t.test('search query → Meilisearch search parameters, and hits back', async (t) => {
  const fields = ['document_id', 'chunk_id', 'kind', 'title', 'section', 'text', 'url']
  t.same(knowledgeSearchParams({ q: 'how long does shipping take', limit: 5 }), {
    q: 'how long does shipping take', limit: 5, matchingStrategy: 'frequency', showRankingScore: true, attributesToRetrieve: fields
  }, 'keyword: the most frequent words may be left unmatched; scores asked')
  const vector = Float32Array.from([0.25, -0.75])
  t.same(knowledgeSearchParams({ q: 'parcel late', limit: 3, hybrid: { semanticRatio: 0.5, vector } }), {
    q: 'parcel late', limit: 3, matchingStrategy: 'frequency', showRankingScore: true, attributesToRetrieve: fields, hybrid: { embedder: 'default', semanticRatio: 0.5 }, vector: [0.25, -0.75]
  }, 'hybrid: our query vector with the ratio')
  const ratio0 = knowledgeSearchParams({ q: 'x', limit: 3, hybrid: { semanticRatio: 0, vector } })
  t.notOk('hybrid' in ratio0 || 'vector' in ratio0, 'ratio 0 is the keyword search')
  t.notOk(hasWords({ q: '🎧 ?!', limit: 5 }), 'no word: not sent (Meilisearch would answer a placeholder search with every chunk)')
  t.notOk(hasWords({ q: 'shipping', limit: 0 }))
  t.ok(hasWords({ q: 'c++', limit: 1 }))

  const response = {
    hits: [
      { document_id: 'shipping', chunk_id: '1', kind: 'page', title: 'Shipping', section: 'Shipping › Costs', text: 'Free over 50 euros.', url: 'https://shop.example/shipping#costs', _rankingScore: 0.912345 },
      { document_id: 'f', chunk_id: '0', kind: 'faq', title: 'Q?', section: '', text: 'A.', url: null, _rankingScore: 1.0000001 }
    ],
    query: 'x',
    processingTimeMs: 1,
    limit: 5,
    offset: 0,
    estimatedTotalHits: 2
  } as unknown as SearchResponse
  t.same(knowledgeHits(response), [
    { documentId: 'shipping', chunkId: '1', kind: 'page', title: 'Shipping', section: 'Shipping › Costs', text: 'Free over 50 euros.', url: 'https://shop.example/shipping#costs', score: 0.9123 },
    { documentId: 'f', chunkId: '0', kind: 'faq', title: 'Q?', section: '', text: 'A.', score: 1 }
  ], 'Meilisearch\'s ranking score, rounded and within [0, 1]; no URL left out')
})
