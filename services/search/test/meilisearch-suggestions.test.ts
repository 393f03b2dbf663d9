import t from 'tap'
import { foldQuery, phraseChanges, suggestionId, withItems, withSearch } from '../src/engines/meilisearch/suggestions.js'

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
