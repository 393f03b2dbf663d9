// Embedded engine only: it holds the SQLite write lock of a project's index file, as the admin CLI
// importing a catalog does (Meilisearch re-indexes on its own server and serves the old settings meanwhile).
import t from 'tap'
import Database from 'better-sqlite3'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ids, send, withCatalog } from './helpers.js'

t.test('searches and autocomplete are served, with the old settings, while new settings are applied', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'chatsearch-rebuild-'))
  const { h, shop, search } = await withCatalog(t, 'embedded', false, { dataDir })
  t.same(ids(await search({ search_term: 'cookware' })), ['pan-1'], 'category is searchable')
  t.same(ids(await search({ search_term: '', filters: 'category = Coffee' })).sort(), ['coffee-1', 'coffee-2'], 'and filterable')
  await h.app.analytics.flush()

  // Another writer holds the file (the rebuild waits for it, up to SQLite's busy timeout of 10 s):
  // the settings change and an import arriving after it are under way until it lets go.
  const other = new Database(join(dataDir, 'search', `${shop.projectId}.sqlite`))
  t.teardown(() => other.close())
  other.exec('BEGIN IMMEDIATE')
  const settings = { searchableAttributes: ['title', 'brand', 'description'], filterableAttributes: ['price', 'brand', 'in_stock'], facetableAttributes: ['brand'] }
  const settled: string[] = []
  const change = send(h.app, shop.key, 'PUT', '/settings', settings).then((res) => { settled.push('settings'); return res })
  const skillet = { id: 'pan-2', title: 'Cast Iron Skillet', category: 'Cookware', brand: 'Ferro', price: 40, in_stock: true }
  const imported = send(h.app, shop.key, 'POST', '/documents', [skillet]).then((res) => { settled.push('import'); return res })

  t.same(ids(await search({ search_term: 'cookware' })), ['pan-1'], 'a search meanwhile: the old settings')
  t.same(ids(await search({ search_term: '', filters: 'category = Coffee' })).sort(), ['coffee-1', 'coffee-2'], 'the old filterable attributes')
  const complete = await send(h.app, shop.key, 'POST', '/autocomplete', { autocomplete_term: 'brew' })
  t.equal(complete.statusCode, 200)
  t.ok(complete.json().suggestions.includes('Brewmaster'), 'autocomplete meanwhile')
  t.same(settled, [], 'all of that was answered while the settings change and the import were still under way')

  other.exec('ROLLBACK')
  const changed = await change
  t.equal(changed.statusCode, 200)
  t.same(changed.json(), { ...settings, sortableAttributes: [], synonyms: {}, stopWords: [], suggestionsMinSearchers: 3, suggestionsExcluded: [] },
    'sent without sortable attributes, synonyms or stop words: none; autocomplete\'s rules: their defaults')
  t.same((await imported).json(), { received: 1, indexed: 1, unchanged: 0, total: 13 })
  t.same(settled, ['settings', 'import'], 'the import waited for the new settings')

  t.same(ids(await search({ search_term: 'cookware' })), [], 'category is no longer searchable')
  t.equal((await send(h.app, shop.key, 'POST', '/search', { search_term: '', filters: 'category = Coffee' })).json().code, 'invalid_filter', 'nor filterable')
  t.same(ids(await search({ search_term: 'skillet' })).sort(), ['pan-1', 'pan-2'], 'the import was indexed with the new settings')
})
