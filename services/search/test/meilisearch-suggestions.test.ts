import t from 'tap'
import { completionOf, foldQuery, pageOfSuggestions, phraseChanges, suggestionId, suggestionSearch, withItems, withSearch, type SuggestionHit } from '../src/engines/meilisearch/suggestions.js'

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

t.test('weights: items carrying a phrase, and searches that found something (five times)', async (t) => {
  const one = withItems(undefined, 'quillon', 'Quillon', 2)!
  t.same({ ...one, id: undefined }, { id: undefined, text: 'Quillon', items: 2, searches: 0, lastHits: 0, weight: 2 })
  t.equal(withItems(one, 'quillon', 'Quillon', -2), null, 'no item and never searched: removed')
  const searched = withSearch(withSearch(undefined, 'sonora quiet', 3), 'sonora quiet', 1)
  t.same({ ...searched, id: undefined }, { id: undefined, text: 'sonora quiet', items: 0, searches: 2, lastHits: 1, weight: 10 })
  t.equal(withSearch(searched, 'sonora quiet', 0).weight, 0, 'a search that finds nothing now is not suggested')
  const both = withItems(searched, 'sonora quiet', 'Sonora Quiet', 1)!
  t.same([both.text, both.weight], ['Sonora Quiet', 11], 'a phrase shows as an item wrote it')
  const gone = withItems(both, 'sonora quiet', 'Sonora Quiet', -1)!
  t.same([gone.text, gone.weight], ['sonora quiet', 10], 'the search stays when the last item goes')
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
