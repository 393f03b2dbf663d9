import t from 'tap'
import { readSearchEnv, searchConfig } from '../src/config.js'

const configOf = (env: NodeJS.ProcessEnv) => searchConfig(readSearchEnv(env), 'postgres://x')

t.test('the engine is chosen by configuration only', async (t) => {
  t.equal(configOf({}).meilisearch, undefined, 'nothing configured: the embedded engine')
  t.same(configOf({ MEILI_URL: 'http://127.0.0.1:7700' }).meilisearch,
    { url: 'http://127.0.0.1:7700', indexPrefix: 'chatsearch-', taskTimeoutMs: 30_000 }, 'MEILI_URL alone: Meilisearch')
  t.same(configOf({ SEARCH_ENGINE: 'meilisearch', MEILI_URL: 'https://search.internal', MEILI_API_KEY: 'k', MEILI_INDEX_PREFIX: 'shop_', MEILI_TASK_TIMEOUT_MS: '5000' }).meilisearch,
    { url: 'https://search.internal', apiKey: 'k', indexPrefix: 'shop_', taskTimeoutMs: 5000 })
  t.equal(configOf({ SEARCH_ENGINE: 'embedded', MEILI_URL: 'http://127.0.0.1:7700' }).meilisearch, undefined, 'an explicit choice wins')
})

t.test('bad engine settings stop the start, naming the variable', async (t) => {
  t.throws(() => readSearchEnv({ SEARCH_ENGINE: 'meilisearch' }), /SEARCH_ENGINE: meilisearch needs MEILI_URL/)
  t.throws(() => readSearchEnv({ SEARCH_ENGINE: 'elastic' }), /SEARCH_ENGINE/)
  t.throws(() => readSearchEnv({ MEILI_URL: 'localhost:7700' }), /MEILI_URL/)
  t.throws(() => readSearchEnv({ MEILI_URL: 'http://x', MEILI_INDEX_PREFIX: 'no spaces' }), /MEILI_INDEX_PREFIX/)
  t.throws(() => readSearchEnv({ MEILI_URL: 'http://x', MEILI_TASK_TIMEOUT_MS: '0' }), /MEILI_TASK_TIMEOUT_MS/)
})

t.test('EMBED_THREADS sets the embedding threads: 1 by default, 0 for the event loop, a bad value stops the start', async (t) => {
  t.equal(configOf({}).embedThreads, 1)
  t.equal(configOf({ EMBED_THREADS: '0' }).embedThreads, 0)
  t.equal(configOf({ EMBED_THREADS: '2' }).embedThreads, 2)
  t.throws(() => readSearchEnv({ EMBED_THREADS: '-1' }), /EMBED_THREADS/)
  t.throws(() => readSearchEnv({ EMBED_THREADS: 'many' }), /EMBED_THREADS/)
})

t.test('EMBEDDER picks the bundled embedder: use-lite by default, static on request, anything else stops the start', async (t) => {
  t.equal(configOf({}).embedder, 'use-lite')
  t.equal(configOf({ EMBEDDER: 'static' }).embedder, 'static')
  t.throws(() => readSearchEnv({ EMBEDDER: 'bert' }), /EMBEDDER/)
})

t.test('CATALOG_EMBEDDER picks the catalogs\' bundled embedder: absent, EMBEDDER\'s; anything else stops the start', async (t) => {
  t.notOk('catalogEmbedder' in configOf({}), 'absent: the catalogs take EMBEDDER\'s')
  t.equal(configOf({ CATALOG_EMBEDDER: 'static' }).catalogEmbedder, 'static')
  t.equal(configOf({ EMBEDDER: 'static', CATALOG_EMBEDDER: 'use-lite' }).catalogEmbedder, 'use-lite')
  t.throws(() => readSearchEnv({ CATALOG_EMBEDDER: 'bert' }), /CATALOG_EMBEDDER/)
  const { createEmbedders } = await import('../src/engine-plugin.js')
  const base = { dataDir: '', readers: 0, embeddings: true }
  const one = await createEmbedders({ ...base, embedder: 'static', catalogEmbedder: 'static' })
  t.equal(one.catalog, one.knowledge, 'the same embedder named twice: one, shared')
  t.equal(one.catalog.id, 'use-lite-static-v1:512')
  const apart = await createEmbedders({ ...base, embedder: 'use-lite', catalogEmbedder: 'static', embedThreads: 0 })
  t.same([apart.knowledge.id, apart.catalog.id], ['use-lite:512', 'use-lite-static-v1:512'], 'two named: USE-lite for the knowledge, static for the catalogs')
  const same = await createEmbedders({ ...base, embedder: 'static' })
  t.equal(same.catalog, same.knowledge, 'CATALOG_EMBEDDER absent: EMBEDDER\'s, shared')
  t.same(await createEmbedders({ ...base, embeddings: false, catalogEmbedder: 'static' }), { knowledge: { embedder: undefined, id: 'none' }, catalog: { embedder: undefined, id: 'none' } },
    'embeddings off: none for either')
})

t.test('the embedder id names the model whose vectors an index holds', async (t) => {
  const { createEmbedder } = await import('../src/engine-plugin.js')
  const base = { dataDir: '', readers: 0, embeddings: true }
  const chosen = await createEmbedder({ ...base, embedder: 'static' })
  t.equal(chosen.id, 'use-lite-static-v1:512')
  t.equal(chosen.embedder?.dimensions, 512)
  t.same(await createEmbedder({ ...base, embeddings: false }), { embedder: undefined, id: 'none' }, 'embeddings off: none')
})

t.test('SEARCH_THREAD_NICE lowers the engine threads: 5 by default, 0 to 19, anything else stops the start', async (t) => {
  t.equal(configOf({}).threadNice, 5)
  t.equal(configOf({ SEARCH_THREAD_NICE: '0' }).threadNice, 0)
  t.equal(configOf({ SEARCH_THREAD_NICE: '19' }).threadNice, 19)
  t.throws(() => readSearchEnv({ SEARCH_THREAD_NICE: '20' }), /SEARCH_THREAD_NICE/)
  t.throws(() => readSearchEnv({ SEARCH_THREAD_NICE: '-5' }), /SEARCH_THREAD_NICE/)
})

t.test('SEARCH_OPEN_INDEXES caps the open index files: 100 by default, at least 1, anything else stops the start', async (t) => {
  t.equal(configOf({}).openIndexes, 100)
  t.equal(configOf({ SEARCH_OPEN_INDEXES: '1' }).openIndexes, 1)
  t.equal(configOf({ SEARCH_OPEN_INDEXES: '5000' }).openIndexes, 5000)
  t.throws(() => readSearchEnv({ SEARCH_OPEN_INDEXES: '0' }), /SEARCH_OPEN_INDEXES/)
  t.throws(() => readSearchEnv({ SEARCH_OPEN_INDEXES: 'all' }), /SEARCH_OPEN_INDEXES/)
})
