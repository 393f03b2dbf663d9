import t from 'tap'
import { chunksOf, THREAD_PARSE_MIN_CHARS } from '../src/knowledge/ingest.js'
import type { IncomingKnowledge } from '../src/engine/port.js'
import { searchHarness, send } from './helpers.js'

// Knowledge sent as JSON whose text is long is parsed and chunked on a thread of its own: one hostile
// page (a Markdown table of 50,000 columns took 14 s) used to hold the event loop, and with it every
// project's searches and the health checks.

const sections = (count: number) => Array.from({ length: count }, (_, i) =>
  `## Topic ${i}\n\nParagraph ${i} explains how returns number ${i} are handled within ${i + 10} days. ${'More words about the policy. '.repeat(8)}`).join('\n\n')

t.test('long pages are chunked on a thread exactly as they would be inline, and found', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const page = { id: 'long-policy', title: 'Returns policy', content: `# Returns policy\n\n${sections(160)}`, url: 'https://shop.example/returns' }
  t.ok(page.content.length > THREAD_PARSE_MIN_CHARS, 'long enough for the thread')
  // Two long pages (one thread for both) around a short one: each keeps its own chunks, in its place.
  const second = { id: 'long-shipping', title: 'Shipping', content: `# Shipping\n\n${sections(170).replaceAll('returns', 'parcels')}`, format: 'markdown' }
  const short = { id: 'short', title: 'Hours', content: '# Hours\n\nOpen 9 to 5.' }
  const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', [page, short, second])
  t.same(res.json(), { received: 3, indexed: 3, unchanged: 0, total: 3 })
  for (const doc of [page, short, second]) {
    const stored = (await send(h.app, shop.key, 'GET', `/knowledge/documents/${doc.id}`)).json() as { chunks: Array<{ section: string, text: string }> }
    const inline = chunksOf({ kind: 'page', ...doc } as IncomingKnowledge)
    t.same(stored.chunks.map((c) => [c.section, c.text]), inline.map((c) => [c.section, c.text]), `${doc.id}: the chunks the inline parse gives`)
  }
  const hits = (await send(h.app, shop.key, 'POST', '/knowledge/search', { query: 'returns number 42', search_type: 'keyword' })).json().hits as Array<{ section: string }>
  t.match(hits[0]?.section, /Topic 42/)
})

t.test('the event loop keeps running while a page of dense markup is parsed', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const table = '|' + 'a1|'.repeat(50_000) + '\n|' + '-|'.repeat(50_000) + '\n'
  let ticks = 0
  const timer = setInterval(() => { ticks++ }, 10)
  const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', [{ id: 'wide-table', title: 'Sizes', content: `# Sizes\n\n${table}` }])
  clearInterval(timer)
  t.equal(res.statusCode, 200, res.body)
  // Parsed on the event loop it took seconds with no tick in between; on the thread the loop ticks throughout.
  t.ok(ticks >= 20, `the loop ticked ${ticks} times during the request`)
})

t.test('a long page its parser refuses is a 400 naming the document, and nothing is written', async (t) => {
  const h = await searchHarness(t, false)
  const shop = await h.tenant()
  const deep = `<p>${'x '.repeat(THREAD_PARSE_MIN_CHARS)}</p>${'<div>'.repeat(500)}deep${'</div>'.repeat(500)}`
  const res = await send(h.app, shop.key, 'POST', '/knowledge/documents', [{ id: 'ok', title: 'Fine', content: 'A short page.' }, { id: 'too-deep', title: 'Deep', content: deep, format: 'html' }])
  t.equal(res.statusCode, 400)
  t.match(res.json(), { code: 'invalid_document', message: /^document too-deep: .*nests/ })
  t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 0, 'the batch is refused whole')
})
