// The evaluation's datasets (eval/help, eval/catalogs, eval/splits.json) load with the loader `pnpm eval`
// uses, are valid, and every fact a question expects is in one of its sources. No server is started.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { datasetLabels, loadDatasets, missingFacts, splitOf } from '../eval/datasets.js'

t.test('every dataset loads, is valid, and holds the facts its questions expect', async (t) => {
  const labels = await datasetLabels()
  t.ok(labels.includes('help/saleor'), 'the Saleor help corpus is there')
  t.ok(labels.includes('catalogs/demo'), 'the demo is there')
  for (const label of labels) {
    // One at a time, so that every broken dataset is named, not only the first.
    const loaded = await loadDatasets(undefined, [label]).then((d) => d[0]!, (err: Error) => err)
    if (loaded instanceof Error) { t.fail(`${label}: ${loaded.message}`); continue }
    const d = loaded
    if (d.name === 'demo') t.notOk(d.heldout, 'the demo is development data')
    const entries = [...d.questions, ...d.requests, ...d.conversations]
    t.ok(entries.length > 0, `${d.label}: has entries`)
    t.same(missingFacts(d), [], `${d.label}: every fact is in one of its question's sources`)
    if (!d.heldout) t.ok(entries.some((e) => splitOf(d, e) === 'dev'), `${d.label}: has development entries`)
  }
})

/** A small valid help corpus and catalog under a temporary root; `change` breaks one file. */
async function fixture (t: Test, change: (files: Record<string, unknown>) => void): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'eval-data-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const files: Record<string, unknown> = {
    'splits.json': { heldout: { help: [], catalogs: [] } },
    'help/h/SOURCE.md': 'test corpus',
    'help/h/pages/returns.md': '---\ntitle: Returns\nurl: https://example.test/returns\n---\n\nYou can return any item within **30 days**.\n',
    'help/h/faq.json': [{ id: 'faq-ship', question: 'How long is shipping?', answer: 'Three to five working days.' }],
    'help/h/questions.json': [
      { id: 'q1', split: 'dev', category: 'answerable', say: 'How long do I have to return?', sources: ['returns'], facts: ['30 days'], classification: 'question' },
      { id: 'q2', split: 'heldout', category: 'faq', say: 'shipping time?', sources: ['faq-ship'], facts: ['three to five working days'], classification: 'question' }
    ],
    'catalogs/c/SOURCE.md': 'test catalog',
    'catalogs/c/items.json': [{ id: 'a1', title: 'Red kettle', price: 20, rating: 4 }, { id: 'a2', title: 'Blue kettle', price: 25 }],
    'catalogs/c/settings.json': { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] },
    'catalogs/c/requests.json': [{ id: 'r1', split: 'dev', say: 'a kettle', relevant: ['a1', 'a2'], classification: 'request' }],
    'catalogs/c/conversations.json': [{ id: 'k1', split: 'dev', category: 'follow-up', turns: [{ say: 'kettles?', expect: { cites_any_of: ['a1'] } }, { say: 'price of the first?', expect: { contains_price_of_turn_item: [0, 0] } }] }]
  }
  change(files)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return root
}

t.test('the fixture itself is valid', async (t) => {
  const root = await fixture(t, () => {})
  const datasets = await loadDatasets(root)
  t.same(datasets.map((d) => d.label), ['help/h', 'catalogs/c'])
  t.same(datasets.flatMap(missingFacts), [])
})

t.test('a broken dataset is refused with its file and entry named', async (t) => {
  const questions = (files: Record<string, unknown>) => files['help/h/questions.json'] as Array<Record<string, unknown>>
  const cases: Array<[string, (files: Record<string, unknown>) => void, RegExp]> = [
    ['an unknown source', (f) => { questions(f)[0]!.sources = ['nowhere'] }, /questions\.json: "q1": source "nowhere"/],
    ['a duplicate id', (f) => { questions(f)[1]!.id = 'q1' }, /questions\.json: duplicate id "q1"/],
    ['a missing split', (f) => { delete questions(f)[0]!.split }, /questions\.json: "q1": "split" must be "dev" or "heldout" \(missing\)/],
    ['a missing say', (f) => { delete questions(f)[1]!.say }, /questions\.json: "q2": "say"/],
    ['an unknown item in relevant', (f) => { (f['catalogs/c/requests.json'] as Array<Record<string, unknown>>)[0]!.relevant = ['zz'] }, /requests\.json: "r1": relevant item "zz"/],
    ['an unknown item in cites_any_of', (f) => { (f['catalogs/c/conversations.json'] as Array<{ turns: Array<{ expect: Record<string, unknown> }> }>)[0]!.turns[0]!.expect.cites_any_of = ['zz'] }, /conversations\.json: "k1" turn 0: cites_any_of "zz"/],
    ['a reference to a later turn', (f) => { (f['catalogs/c/conversations.json'] as Array<{ turns: Array<{ expect: Record<string, unknown> }> }>)[0]!.turns[1]!.expect.contains_price_of_turn_item = [1, 0] }, /"k1" turn 1: "contains_price_of_turn_item" refers to turn 1/],
    ['an unknown check', (f) => { (f['catalogs/c/conversations.json'] as Array<{ turns: Array<{ expect: Record<string, unknown> }> }>)[0]!.turns[0]!.expect.cites_everything = true }, /unknown check "cites_everything"/],
    ['a page without front matter', (f) => { f['help/h/pages/returns.md'] = 'no front matter' }, /returns\.md: no front matter/],
    ['a duplicate item id', (f) => { (f['catalogs/c/items.json'] as Array<Record<string, unknown>>)[1]!.id = 'a1' }, /items\.json: duplicate id "a1"/],
    ['a held-out name that is no dataset', (f) => { f['splits.json'] = { heldout: { help: ['nope'], catalogs: [] } } }, /splits\.json: heldout\.help names "nope"/]
  ]
  for (const [what, change, message] of cases) {
    const root = await fixture(t, change)
    await t.rejects(loadDatasets(root), { name: 'DatasetError', message }, what)
  }
})

t.test('a fact in none of its sources is reported', async (t) => {
  const root = await fixture(t, (f) => { (f['help/h/questions.json'] as Array<Record<string, unknown>>)[0]!.facts = ['60 days'] })
  const [help] = await loadDatasets(root, ['help/h'])
  t.same(missingFacts(help!), ['help/h question q1: fact "60 days" is in none of [returns]'])
})

t.test('a held-out dataset counts wholly as held-out', async (t) => {
  const root = await fixture(t, (f) => { f['splits.json'] = { heldout: { help: ['h'], catalogs: [] } } })
  const [help] = await loadDatasets(root, ['h'])
  t.ok(help!.heldout)
  t.same(help!.questions.map((q) => splitOf(help!, q)), ['heldout', 'heldout'])
})
