import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { SEARCH_CACHE_PREFIX } from '@chatsearch/search'
import { startRedis, testDatabase } from '@chatsearch/testkit'
import { cli } from './run.js'

t.test('catalog import and settings', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-catalog-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const env = { DATABASE_URL: await testDatabase(t), DATA_DIR: dir, EMBEDDINGS: 'false' }
  const run = (...args: string[]) => cli(args, env)
  const project = JSON.parse((await run('project', 'create', 'Shop', '--json')).stdout)

  const jsonl = join(dir, 'items.jsonl')
  await writeFile(jsonl, [
    { id: 'a1', title: 'Trail Boot', brand: 'Acme', price: 99, in_stock: true },
    { id: 'a2', title: 'Road Shoe', brand: 'Acme', price: 79, in_stock: false },
    { id: 3, title: 'Camp Stove', brand: 'Blaze', price: 45, in_stock: true }
  ].map((i) => JSON.stringify(i)).join('\n') + '\n')
  const imported = await run('catalog', 'import', project.id, jsonl, '--json')
  t.equal(imported.code, 0, imported.stderr)
  const result = JSON.parse(imported.stdout)
  t.match(result, { project_id: project.id, received: 3, indexed: 3, unchanged: 0, total: 3 })
  t.match(imported.stderr, /importing \[#+\] 100% 3\/3 items/, 'progress on stderr')

  const again = JSON.parse((await run('catalog', 'import', project.id, jsonl, '--json')).stdout)
  t.match(again, { indexed: 0, unchanged: 3, total: 3 }, 'an unchanged re-import writes nothing')

  const csv = join(dir, 'more.csv')
  await writeFile(csv, 'id,title,brand,price,in_stock\nc1,"Tent, two person",Blaze,199.5,true\nc2,Sleeping Bag,Blaze,89,false\n')
  const fromCsv = JSON.parse((await run('catalog', 'import', project.id, csv, '--json')).stdout)
  t.match(fromCsv, { indexed: 2, total: 5 })
  const twice = join(dir, 'twice.csv')
  await writeFile(twice, 'id,title,price,price\nd1,Lantern,10,12\n')
  const refused = await run('catalog', 'import', project.id, twice, '--json')
  t.not(refused.code, 0, 'a column named twice is refused, not resolved silently')
  t.match(refused.stderr, /price\\?" appears twice/)
  // What the API refuses in a body, the CLI refuses in a file, before anything is written.
  const hostile = join(dir, 'hostile.jsonl')
  for (const line of ['{"id": "h1", "title": "Lantern \\ud800"}', '{"id": "h2", "title": "Lamp", "price": 1e309}', '{"id": "h3", "__proto__": {"x": 1}}']) {
    await writeFile(hostile, line + '\n')
    const res = await run('catalog', 'import', project.id, hostile, '--json')
    t.not(res.code, 0, line)
    t.match(res.stderr, /lone surrogate|beyond what a JSON number holds|__proto__/, line)
  }

  const json = join(dir, 'one.json')
  await writeFile(json, JSON.stringify([{ id: 'j1', title: 'Headlamp', brand: 'Lumo', price: 25, in_stock: true }]))
  t.match(JSON.parse((await run('catalog', 'import', project.id, json, '--json')).stdout), { indexed: 1, total: 6 })
  const human = await run('catalog', 'import', project.id, json)
  t.match(human.stdout, new RegExp(`^imported 1 item into ${project.id} in [0-9.]+s: 0 new or changed, 1 unchanged; 6 items in the catalog\n$`), 'one item, not "1 items"')
  t.match(human.stderr, /^importing \[#{24}\] 100% 1\/1 item · /m)
  t.equal(human.stderr.match(/100%/g)?.length, 1, 'the finished line once')

  const settings = JSON.parse((await run('catalog', 'settings', project.id, '--json')).stdout)
  t.equal(settings.searchableAttributes[0], 'title')

  t.test('with REDIS_URL, a catalog change makes the search services\' cached responses stale', async (t) => {
    const redis = await startRedis(t)
    const client = new Redis(redis.url)
    t.teardown(() => client.disconnect())
    const version = async () => await client.get(`${SEARCH_CACHE_PREFIX}:version:${project.id}`)
    t.equal(await version(), null)
    const res = await cli(['catalog', 'import', project.id, json], { ...env, REDIS_URL: redis.url })
    t.equal(res.code, 0, res.stderr)
    t.equal(await version(), '1')
    const settingsFile = join(dir, 'settings.json')
    await writeFile(settingsFile, JSON.stringify(settings))
    t.equal((await cli(['catalog', 'settings', project.id, '--set', settingsFile], { ...env, REDIS_URL: redis.url })).code, 0)
    t.equal(await version(), '2')
    t.equal((await cli(['catalog', 'settings', project.id], { ...env, REDIS_URL: redis.url })).code, 0)
    t.equal(await version(), '2', 'reading the settings changes nothing')
  })
  t.ok(settings.filterableAttributes.includes('price'))

  const wanted = join(dir, 'settings.json')
  await writeFile(wanted, JSON.stringify({ searchableAttributes: ['title', 'brand'], filterableAttributes: ['price'], facetableAttributes: ['brand'] }))
  const set = JSON.parse((await run('catalog', 'settings', project.id, '--set', wanted, '--json')).stdout)
  t.same(set.searchableAttributes, ['title', 'brand'])
  t.same([set.synonyms, set.stopWords], [{}, []], 'left out: none')

  const words = join(dir, 'words.json')
  await writeFile(words, JSON.stringify({ searchableAttributes: ['title', 'brand'], filterableAttributes: ['price'], facetableAttributes: ['brand'], synonyms: { boot: ['hiker', 'walking shoe'] }, stopWords: ['the'] }))
  const shown = await run('catalog', 'settings', project.id, '--set', words)
  t.equal(shown.code, 0, shown.stderr)
  t.match(shown.stdout, /^synonyms: boot → hiker, walking shoe$/m, 'synonyms on one line, each key with its alternatives')
  t.match(shown.stdout, /^stopWords: the$/m)
  t.match(shown.stdout, /^sortableAttributes: \(none\)$/m)
  t.match(shown.stdout, /^suggestionsMinSearchers: 3$/m, 'a number shown as one')
  t.match(shown.stdout, /^suggestionsExcluded: \(none\)$/m)

  t.test('mistakes', async (t) => {
    const bad = join(dir, 'bad.jsonl')
    await writeFile(bad, '{"id":"ok","title":"fine"}\n{"title":"no id"}\n')
    const rejected = await run('catalog', 'import', project.id, bad)
    t.equal(rejected.code, 1)
    t.match(rejected.stderr, /item 2: missing field "id"; nothing was imported/)
    const broken = join(dir, 'broken.jsonl')
    await writeFile(broken, '{"id":"x"}\n{oops\n')
    t.match((await run('catalog', 'import', project.id, broken)).stderr, /line 2: not valid JSON/)
    t.match((await run('catalog', 'import', project.id, join(dir, 'items.xml'))).stderr, /unsupported file type/)
    t.match((await run('catalog', 'import', 'prj_nope', jsonl)).stderr, /no project prj_nope/)
    t.equal((await run('catalog', 'import', project.id)).code, 2)
    const badSettings = join(dir, 'bad-settings.json')
    await writeFile(badSettings, JSON.stringify({ searchableAttributes: 'title' }))
    const refused = await run('catalog', 'settings', project.id, '--set', badSettings)
    t.equal(refused.code, 1)
    t.match(refused.stderr, /searchableAttributes/)
    await writeFile(badSettings, JSON.stringify({ searchableAttributes: ['title'], filterableAttributes: [], facetableAttributes: [], stopWords: ["don't"] }))
    const twoWords = await run('catalog', 'settings', project.id, '--set', badSettings)
    t.equal(twoWords.code, 1)
    t.match(twoWords.stderr, /stopWords: "don't" is 2 words .*a stop word is one word/, 'checked as PUT /settings checks it')
    const total = JSON.parse((await run('catalog', 'import', project.id, json, '--json')).stdout).total
    t.equal(total, 6, 'nothing of the refused imports was written')
  })
})
