import t from 'tap'
import {
  completionOf, pageOfSuggestions, phraseChanges, popularSearchOf, suggestionId, suggestionSearch, weighed, withItems, withSearch, type SuggestionHit
} from '../src/engines/meilisearch/suggestions.js'
import { foldQuery } from '../src/text.js'

/** The default rules: three searchers, none excluded. */
const RULES = { minSearchers: 3, excluded: [] }
const by = (searcher: string, keywordHits: number | null = 2) => ({ keywordHits, searcher })

t.test('suggestion ids are valid Meilisearch document ids, one per folded text', async (t) => {
  const id = suggestionId('café noir')
  t.match(id, /^[A-Za-z0-9_-]{1,511}$/)
  t.equal(suggestionId('café noir'), id)
  t.not(suggestionId('cafe noir'), id)
  t.equal(foldQuery('  Café   NOIR '), 'cafe noir')
})

t.test('phrase counts follow items in and out', async (t) => {
  const before = [{ id: 'a', title: 'Zephyr Kettle', brand: 'Quillon' }, { id: 'b', title: 'Zephyr Teapot', brand: 'Quillon' }]
  const after = [{ id: 'a', title: 'Zephyr Kettle', brand: 'Quillon' }, { id: 'b', title: 'Zephyr Teapot', brand: 'Orsk' }]
  t.same([...phraseChanges(before, after)], [['quillon', { phrase: 'Quillon', delta: -1 }], ['orsk', { phrase: 'Orsk', delta: 1 }]], 'unchanged phrases are left out')
  t.same([...phraseChanges([], [{ id: 'c', category: 'Hiking', tags: ['Hiking', 'boots'] }])], [['hiking', { phrase: 'Hiking', delta: 1 }], ['boots', { phrase: 'boots', delta: 1 }]],
    'a phrase counts once per item, whichever attributes carry it')
})

t.test('weights: items carrying a phrase, and suggested searches (five times)', async (t) => {
  const one = withItems(undefined, 'quillon', 'Quillon', 2, RULES)!
  t.same({ ...one, id: undefined }, { id: undefined, text: 'Quillon', items: 2, searches: 0, lastHits: null, searchers: [], weight: 2 })
  t.equal(withItems(one, 'quillon', 'Quillon', -2, RULES), null, 'no item and never searched: removed')
  let searched = withSearch(undefined, 'sonora quiet', by('h1', 3), RULES)
  for (let i = 0; i < 10; i++) searched = withSearch(searched, 'sonora quiet', by('h1'), RULES)
  t.same({ ...searched, id: undefined }, { id: undefined, text: 'sonora quiet', items: 0, searches: 11, lastHits: 2, searchers: ['h1'], weight: 0 },
    'eleven searches by one searcher: counted once, not suggested')
  searched = withSearch(withSearch(searched, 'sonora quiet', by('h2'), RULES), 'sonora quiet', by('h3', 1), RULES)
  t.same([searched.searchers, searched.lastHits, searched.weight], [['h1', 'h2', 'h3'], 1, 65], 'a third searcher: suggested, its 13 searches weighing')
  t.same(withSearch(searched, 'sonora quiet', by('h4'), RULES).searchers, ['h1', 'h2', 'h3'], 'no more searchers kept than the rules ask')
  t.equal(withSearch(searched, 'sonora quiet', by('h1', 0), RULES).weight, 0, 'a search that finds nothing now is not suggested')
  t.equal(withSearch(searched, 'sonora quiet', by('h1', null), RULES).lastHits, 1, 'hits not known (a hybrid search): the last known kept')
  t.equal(weighed(searched, { minSearchers: 3, excluded: ['sonora quiet'] }).weight, 0, 'an excluded search is not suggested')
  t.equal(weighed(searched, { minSearchers: 4, excluded: [] }).weight, 0, 'nor one with fewer searchers than a higher threshold asks')
  const both = withItems(searched, 'sonora quiet', 'Sonora Quiet', 1, RULES)!
  t.same([both.text, both.weight], ['Sonora Quiet', 66], 'a phrase shows as an item wrote it')
  t.equal(weighed(both, { minSearchers: 3, excluded: ['sonora quiet'] }).weight, 1, 'excluded, the phrase stays, without its searches')
  const gone = withItems(both, 'sonora quiet', 'Sonora Quiet', -1, RULES)!
  t.same([gone.text, gone.weight], ['sonora quiet', 65], 'the search stays when the last item goes')
  t.same(popularSearchOf(gone), { query: 'sonora quiet', count: 13, searchers: 3, hits: 1 })
  const before = { id: suggestionId('tent'), text: 'tent', items: 0, searches: 40, lastHits: 3, weight: 200 }
  t.same([popularSearchOf(before).searchers, weighed(before, RULES).weight], [0, 0], 'a completion counted before searchers were: none, not suggested')
})

t.test('the search of the suggestions index asks for a window of the best, with their typo counts', async (t) => {
  t.same(suggestionSearch(40), {
    limit: 40, offset: 0, filter: 'weight > 0', matchingStrategy: 'all', attributesToRetrieve: ['text', 'weight'], showRankingScoreDetails: true
  })
  t.same(completionOf({ text: 'Trail Runner', weight: 3, _rankingScoreDetails: { typo: { typoCount: 1 } } }), { key: 'trail runner', text: 'Trail Runner', weight: 3, typos: 1 })
  t.same(completionOf({ text: 'trail', weight: 5 }).typos, 0)
})

/**
 * A stand-in for Meilisearch's ranking of the suggestions index (typos, then weight, then its own
 * tie-break, here the order of insertion, which is not ours), answering the best `window` hits.
 */
function meilisearchLike (hits: SuggestionHit[]) {
  const typos = (h: SuggestionHit) => h._rankingScoreDetails?.typo?.typoCount ?? 0
  const ranked = hits.map((h, i) => ({ h, i })).sort((a, b) => typos(a.h) - typos(b.h) || b.h.weight - a.h.weight || a.i - b.i).map(({ h }) => h)
  const windows: number[] = []
  return { windows, search: async (window: number) => { windows.push(window); return ranked.slice(0, window) } }
}

const hit = (text: string, weight: number, typos = 0): SuggestionHit => ({ text, weight, _rankingScoreDetails: { typo: { typoCount: typos } } })

t.test('pages are slices of one list ordered by typos, weight, then folded text', async (t) => {
  // Ties everywhere, inserted in an order that is not alphabetical, one typo match and an accent.
  const hits = [
    hit('Zephyr', 2), hit('walks', 1), hit('Washable', 1), hit('water', 4), hit('Wärme', 1), hit('wash', 1),
    hit('woven', 1, 1), hit('wax', 2), hit('Water Resistant', 4), hit('wade', 1), hit('warm', 1), hit('wild', 1)
  ]
  const meili = meilisearchLike(hits)
  const all = await pageOfSuggestions(meili.search, 0, 50)
  t.same(all, ['water', 'Water Resistant', 'wax', 'Zephyr', 'wade', 'walks', 'warm', 'Wärme', 'wash', 'Washable', 'wild', 'woven'],
    'fewest typos, heaviest, then by folded text')
  for (const size of [1, 2, 3, 5]) {
    const pages: string[] = []
    for (let offset = 0; offset < all.length; offset += size) pages.push(...await pageOfSuggestions(meili.search, offset, size))
    t.same(pages, all, `pages of ${size}`)
  }
  t.same(await pageOfSuggestions(meili.search, 3, 0), [], 'limit 0')
  t.same(await pageOfSuggestions(meili.search, 20, 5), [], 'past the end')
})

t.test('the window widens until it holds every completion tied with the end of the page', async (t) => {
  const tied = Array.from({ length: 50 }, (_, i) => hit(`item ${String(49 - i).padStart(2, '0')}`, 1))
  const meili = meilisearchLike([hit('best', 9), ...tied])
  t.same(await pageOfSuggestions(meili.search, 0, 3), ['best', 'item 00', 'item 01'], 'the first of the tie by text, not by Meilisearch\'s order')
  t.same(meili.windows, [20, 40, 80], 'the tie ran past 20 and 40 hits; 80 held them all')
  const clear = meilisearchLike([hit('a', 9), hit('b', 8), hit('c', 7), ...tied])
  t.same(await pageOfSuggestions(clear.search, 0, 2), ['a', 'b'])
  t.same(clear.windows, [20], 'the last hit weighs less than the end of the page: one search')
  const many = meilisearchLike(Array.from({ length: 1500 }, (_, i) => hit(`x${i}`, 1)))
  t.equal((await pageOfSuggestions(many.search, 990, 20)).length, 10, 'at most 1000 reachable, as Meilisearch\'s maxTotalHits')
  t.same(many.windows.at(-1), 1000)
})
