// Embedded engine only: a catalog and a knowledge of random words (what one upload within the
// limits can hold) past the typo trie's node budget, on real SQLite files. The budget is what keeps
// memory bounded (see typo.test: the trie never passes it); here, what a search still finds.
import t from 'tap'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { VOCABULARY_MAX_NODES } from '../src/engines/embedded/typo.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { ingestKnowledge } from '../src/knowledge/ingest.js'

const EMBEDDER = { id: 'none', dimensions: 8 }
// Distinct scrambled words of 7 letters (i times an odd number is one-to-one below 2^32): about 4.4
// trie nodes each, so this many pass the budget.
const COUNT = Math.ceil(VOCABULARY_MAX_NODES / 3)
const wordOf = (i: number) => {
  let n = Math.imul(i + 1, 2654435761) >>> 0
  return Array.from({ length: 7 }, () => { const ch = String.fromCharCode(97 + n % 26); n = Math.floor(n / 26); return ch }).join('')
}
const words = Array.from({ length: COUNT }, (_, i) => wordOf(i))

t.test('past the typo trie\'s budget, a random word is still found by its exact spelling, and a frequent one by a typo', async (t) => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'chatsearch-vocabulary-budget-')))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const engine = new EmbeddedEngine(dir, EMBEDDER)
  t.teardown(() => engine.close())

  const pages = Array.from({ length: 10 }, (_, p) => ({
    id: `page-${p}`, title: `Returns page ${p}`, content: `Returns and refunds. ${words.slice(p * COUNT / 10, (p + 1) * COUNT / 10).join(' ')}`
  }))
  const knowledge = await engine.knowledge('shop-words')
  await ingestKnowledge(knowledge, pages, undefined)
  // Terms go into the trie most frequent first, then alphabetically: the last word alphabetically is past the budget.
  const rare = [...words].sort().at(-1)!
  const at = words.indexOf(rare)
  t.equal(new Set(words).size, COUNT)
  t.equal((await knowledge.search({ q: rare, limit: 3 }))[0]?.documentId, `page-${Math.floor(at / (COUNT / 10))}`, `the knowledge finds "${rare}" first, on its page`)
  t.ok((await knowledge.search({ q: 'refnds', limit: 20 })).length === 10, 'and "refnds" (a typo) every page, as "refunds" is on each')

  const items = Array.from({ length: 200 }, (_, i) => ({ id: `i${i}`, title: `Trail lamp ${i}`, description: words.slice(i * COUNT / 200, (i + 1) * COUNT / 200).join(' ') }))
  const catalog = await engine.index('shop-words')
  await ingestDocuments(catalog, items, undefined)
  const search = async (q: string) => (await catalog.search({ q, filter: null, facets: [], limit: 5, offset: 0 })).hits.map((hit) => hit.id)
  t.equal((await search(rare))[0], `i${Math.floor(at / (COUNT / 200))}`, 'the catalog finds it too')
  t.equal((await search('trial lamp')).length, 5, 'and "trial lamp" (a typo) the lamps')
})
