// Embedded engine only: the keyword plan skips typo tiers that cannot match and alternatives that the
// last word's prefix already matches, a search without filter or facets reads its page in one
// statement, and the words rule's levels are read only as far as the page needs. None may change what
// a search answers: every page is checked against the ranking rules (ranking.ts) computed here the
// long way, one MATCH per level and tier over every match.
import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { mulberry32, productsOf } from '../catalog/generate.js'
import type { Document } from '../src/engine/port.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import type { MatchingStrategy } from '@chatsearch/contracts'
import { planKeyword, planLevels } from '../src/engines/embedded/keyword.js'
import { bm25 } from '../src/engines/embedded/ranking.js'
import { Vocabulary } from '../src/engines/embedded/typo.js'
import { tokenize } from '../src/text.js'

t.test('the plan: tiers that cannot match come first and are skipped, prefix-matched alternatives are left out', async (t) => {
  const vocabulary = new Vocabulary(['hooded', 'jacket', 'jackets', 'jacked', 'packet', 'walnut'])
  t.same(planKeyword('hooded jacket', vocabulary), {
    tiers: ['("hooded") AND ("jacket" * OR "jackets")', '("hooded") AND ("jacket" * OR "jackets" OR "jacked")'],
    first: 0,
    beyond: ['(("jacked") NOT ("jacket" * OR "jackets"))']
  }, '"jackets" is matched by "jacket" * already: in tier 0; "packet" starts with another letter: two typos')
  t.equal(planKeyword('hooded jacke', new Vocabulary(['hooded', 'jacket', 'jackets']))?.tiers.length, 1, 'alternatives the prefix matches add no tier')
  t.same(planKeyword('hoodde jacket', vocabulary), {
    tiers: ['("hoodde") AND ("jacket" * OR "jackets")', '("hoodde" OR "hooded") AND ("jacket" * OR "jackets" OR "jacked")'],
    first: 1,
    beyond: ['(("hooded") NOT ("hoodde")) OR (("jacked") NOT ("jacket" * OR "jackets"))']
  }, 'a misspelt word as typed is in no document: tier 0 cannot match')
  t.same(planKeyword('jacket walnut', vocabulary)?.first, 0, 'a prefix as typed counts when a term starts with it')
  t.same(planKeyword('walnut jackel', vocabulary), {
    tiers: ['("walnut") AND ("jackel" *)', '("walnut") AND ("jackel" * OR "jacked" OR "jacket")'],
    first: 1,
    beyond: ['(("jacked" OR "jacket") NOT ("jackel" *))']
  }, 'a last word that starts no term cannot match as typed')
  const none = planKeyword('zzzzzz jacket', vocabulary)!
  t.equal(none.first, none.tiers.length - 1, 'when no tier can match, the widest still runs')
})

t.test('the plan per level of the words rule: words dropped as the matching strategy says', async (t) => {
  const vocabulary = new Vocabulary(['hooded', 'jacket', 'walnut', 'rain'])
  const counts: Record<string, number> = { '("hooded")': 5, '("rain")': 40, '("jacket" *)': 5, '("walnut")': 0 }
  const documentsWith = (match: string) => counts[match] ?? -1
  const widest = (strategy: MatchingStrategy, q = 'hooded rain walnut jacket') => planLevels(q, vocabulary, strategy, documentsWith)!.map((plan) => plan.tiers.at(-1))
  t.same(widest('all'), ['("hooded") AND ("rain") AND ("walnut") AND ("jacket" *)'], 'all: one level, every word')
  t.same(widest('last'), [
    '("hooded") AND ("rain") AND ("walnut") AND ("jacket" *)',
    '("hooded") AND ("rain") AND ("walnut")',
    '("hooded") AND ("rain")',
    '("hooded")'
  ], 'last: from the end; the first word stays, and a dropped last word takes its prefix with it')
  t.same(widest('frequency'), [
    '("hooded") AND ("rain") AND ("walnut") AND ("jacket" *)',
    '("hooded") AND ("rain") AND ("jacket" *)',
    '("hooded") AND ("jacket" *)'
  ], 'frequency: a word in no document first, then the most frequent; the rarest (two, as rare) stay together')
  t.same(widest('last', 'jacket'), ['("jacket" *)'], 'one word: nothing to drop')
  const twelve = planLevels('rain '.repeat(9) + 'jacket hooded walnut', vocabulary, 'last', documentsWith)!
  t.equal(twelve.length, 10, 'ten words count, as in Meilisearch')
  t.match(twelve[0]!.tiers[0], /AND \("jacket"\)$/, 'the tenth is no prefix when words follow it')
  t.same(planLevels('hooded jacket', vocabulary, 'all', documentsWith), [planKeyword('hooded jacket', vocabulary)], 'all is the plan of every word')
})

t.test('keyword pages follow the ranking rules: words level, typo tier, bm25, rowid', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-keyword-'))
  t.teardown(async () => await rm(dir, { recursive: true, force: true }))
  const engine = new EmbeddedEngine(dir, { id: 'test:4', dimensions: 4 })
  t.teardown(async () => await engine.close())
  const index = await engine.index('p')
  const settings = { searchableAttributes: ['title', 'brand', 'category'], filterableAttributes: ['brand'], facetableAttributes: ['brand'] }
  await index.updateSettings(settings)
  const products = [...productsOf(1500, 3)] as unknown as Document[]
  // Short documents with a word one or two typos from a catalog word: bm25 alone would rank them
  // first, the typo rule after every closer match.
  const odd = [{ id: 'odd-1', title: 'Roler', brand: 'Odd', category: 'Odd' }, { id: 'odd-2', title: 'Smartwatcz', brand: 'Odd', category: 'Odd' }]
  await index.upsert([...products, ...odd].map((document) => ({ document, vector: null })))

  const db = new Database(join(dir, 'p.sqlite'), { readonly: true })
  t.teardown(() => db.close())
  const vocabulary = new Vocabulary(db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[])
  const ids = db.prepare('SELECT rowid, id FROM documents').raw().all() as Array<[number, string]>
  const idOf = new Map(ids)
  const scored = db.prepare(`SELECT rowid, ${bm25(settings.searchableAttributes.length)} AS score FROM fts WHERE fts MATCH ?`).raw()
  const matching = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ?').pluck()
  const documentsWith = (match: string) => matching.all(match).length
  /**
   * Every match ranked the long way: each level's matches that no level before holds, by each tier's
   * MATCH (impossible ones included), then by the bm25 of the level's words.
   */
  const expected = (q: string, byTier = true, strategy: MatchingStrategy = 'all') => {
    const levels = planLevels(q, vocabulary, strategy, documentsWith)!
    const placed = new Set<number>()
    return levels.flatMap(({ tiers }) => {
      const tierSets = tiers.map((tier) => new Set(matching.all(tier) as number[]))
      const rows = (scored.all(tiers.at(-1)) as Array<[number, number]>)
        .filter(([rowid]) => !placed.has(rowid))
        .map(([rowid, score]) => ({ rowid, score, tier: byTier ? tierSets.findIndex((s) => s.has(rowid)) : 0 }))
      rows.sort((a, b) => a.tier - b.tier || a.score - b.score || a.rowid - b.rowid)
      for (const r of rows) placed.add(r.rowid)
      return rows.map((r) => idOf.get(r.rowid)!)
    })
  }

  // Queries from the catalog's own words (a brand and a product, two words of a title, one word),
  // and the same with a letter dropped or two swapped.
  const random = mulberry32(9)
  const queries: string[] = ['roller', 'foam roller', 'roller foam', 'smartwatsh', 'meridell smartwatsh']
  for (let i = 0; queries.length < 80; i += 17) {
    const product = products[i % products.length]!
    const title = tokenize(String(product.title))
    const words = [[...tokenize(String(product.brand)), title.at(-1)!], title.slice(-2), title.slice(-1)][i % 3]!
    queries.push(words.join(' '))
    const at = Math.floor(random() * words.length)
    const word = words[at]!
    if (word.length >= 5) {
      const k = 1 + Math.floor(random() * (word.length - 2))
      words[at] = i % 2 === 0 ? word.slice(0, k) + word.slice(k + 1) : word.slice(0, k) + word[k + 1] + word[k] + word.slice(k + 2)
      queries.push(words.join(' '))
    }
  }
  const plans = queries.map((q) => planKeyword(q, vocabulary)!)
  t.ok(plans.some((p) => p.first > 0), 'some queries skip a tier')
  t.ok(plans.some((p) => p.tiers.length - p.first > 1), 'some queries still rank by several tiers')
  const differs = (q: string) => JSON.stringify(expected(q).slice(0, 10)) !== JSON.stringify(expected(q, false).slice(0, 10))
  t.ok(differs('roller') && differs('smartwatsh'), 'the typo rule changes the first page of some queries (bm25 alone would not pass)')

  let compared = 0
  for (const q of queries) {
    const all = expected(q)
    for (const [offset, facets] of [[0, []], [5, []], [0, ['brand']], [5, ['brand']]] as const) {
      const result = await index.search({ q, filter: null, facets: [...facets], limit: 10, offset, matchingStrategy: 'all' })
      const got = result.hits.map((h) => h.id)
      if (JSON.stringify(got) !== JSON.stringify(all.slice(offset, offset + 10)) || result.estimatedTotalHits !== all.length) {
        t.fail(`"${q}" offset ${offset} facets [${facets.join()}]`, { got, wanted: all.slice(offset, offset + 10), total: result.estimatedTotalHits, matches: all.length })
      }
      compared++
    }
  }
  t.equal(compared, queries.length * 4, 'every page compared')

  t.ok(queries.filter((q) => expected(q).length > 10).length >= queries.length / 2, 'most queries fill more than a page')

  // The same queries with a word of another product at either end: levels beyond the first are read
  // when the page reaches them, at any offset, with or without facets.
  const longer = queries.flatMap((q, i) => {
    const other = tokenize(String(products[(i * 31 + 7) % products.length]!.title))
    return [`${q} ${other[0]}`, `${other.at(-1)} ${q}`]
  })
  let levelled = 0
  for (const strategy of ['last', 'frequency'] as const) {
    for (const q of [...queries, ...longer]) {
      const all = expected(q, true, strategy)
      if (all.length > expected(q).length) levelled++
      for (const [offset, facets] of [[0, []], [7, []], [0, ['brand']], [20, ['brand']]] as const) {
        const result = await index.search({ q, filter: null, facets: [...facets], limit: 10, offset, matchingStrategy: strategy })
        const got = result.hits.map((h) => h.id)
        const wanted = all.slice(offset, offset + 10)
        const counted = facets.length === 0 ? all.length : Object.values(result.facetDistribution!.brand!).reduce((a, b) => a + b, 0)
        if (JSON.stringify(got) !== JSON.stringify(wanted) || result.estimatedTotalHits !== all.length || counted !== all.length) {
          t.fail(`${strategy} "${q}" offset ${offset} facets [${facets.join()}]`, { got, wanted, total: result.estimatedTotalHits, matches: all.length, counted })
        }
      }
    }
  }
  t.ok(levelled > longer.length, `most longer queries find more than their every-word matches (${levelled})`)
})
