// POST /search's highlight and crop (Meilisearch's attributesToHighlight and attributesToCrop), the
// same on every engine: with either list each hit gets _formatted, every attribute of the hit with the
// query's words wrapped in the tags and the cropped texts cut around their best match; its strings
// are HTML-escaped, the tags and crop markers excepted (the service computes it, engine/format.ts,
// whose own cases are format.test.ts's). Without either list the answer is what it was before.
import t, { type Test } from 'tap'
import { limits } from '@chatsearch/contracts'
import { searchKey, type SearchRequestKey } from '../src/response-cache.js'
import { ENGINES, searchHarness, send, type EngineKind } from './helpers.js'

const LAMP = {
  id: 'lamp-1',
  title: 'Brass Desk Lamp',
  description: 'A small lamp for the desk. Its brass arm folds flat.',
  brand: 'Lumo',
  price: 45,
  in_stock: true,
  tags: ['brass', 'lighting'],
  details: { material: 'brass', finish: 'Brushed' }
}
const ALPHABET = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa'
const ITEMS = [
  LAMP,
  { id: 'xss-1', title: '<script>alert("x")</script> Lamp & Shade', brand: 'Tom\'s <b>Shop</b>', price: 20, in_stock: false },
  { id: 'cushion-1', title: 'Crème Brûlée Cushion', brand: 'Douce', price: 30, in_stock: true },
  { id: 'poster-1', title: 'Radio Alphabet Poster', description: ALPHABET, brand: 'Signal', price: 12, in_stock: true }
]

const SETTINGS = { searchableAttributes: ['title', 'description', 'tags'], filterableAttributes: ['in_stock'], facetableAttributes: [] }

interface Hit { id: string, _formatted?: Record<string, unknown>, [attribute: string]: unknown }

const suite = (engine: EngineKind) => async (t: Test) => {
  // The response cache on: options missing from its key would answer one request's tags to another.
  const h = await searchHarness(t, false, { cacheTtlS: 60 }, engine)
  const shop = await h.tenant()
  t.equal((await send(h.app, shop.key, 'PUT', '/settings', SETTINGS)).statusCode, 200)
  t.equal((await send(h.app, shop.key, 'POST', '/documents', ITEMS)).statusCode, 200)
  const search = async (body: Record<string, unknown>): Promise<{ hits: Hit[] }> => {
    const res = await send(h.app, shop.key, 'POST', '/search', { limit: 50, ...body })
    t.equal(res.statusCode, 200, JSON.stringify(body))
    return res.json()
  }
  /** The _formatted of item `id` among the hits of `body` (failing the test when the item is not found). */
  const formatted = async (body: Record<string, unknown>, id: string): Promise<Record<string, unknown>> => {
    const hit = (await search(body)).hits.find((hit) => hit.id === id)
    t.ok(hit?._formatted, `${id} found, with _formatted, for ${JSON.stringify(body)}`)
    return hit?._formatted ?? {}
  }

  t.test('matched words in <em> by default, every attribute of the hit in _formatted', async (t) => {
    const body = await search({ search_term: 'lamp', attributes_to_highlight: ['title'] })
    t.ok(body.hits.length >= 2 && body.hits.every((hit) => typeof hit._formatted === 'object'), 'every hit has it')
    const lamp = body.hits.find((hit) => hit.id === 'lamp-1')
    t.same(lamp?._formatted, { ...LAMP, title: 'Brass Desk <em>Lamp</em>' }, 'only the attributes named are highlighted')
    t.equal(lamp?.title, 'Brass Desk Lamp', 'the hit itself is the item as stored')
    t.notOk('_rankingScore' in (lamp?._formatted ?? {}))
  })

  t.test('custom tags', async (t) => {
    const shown = await formatted({ search_term: 'lamp', attributes_to_highlight: ['title'], highlight_pre_tag: '<mark class="hit">', highlight_post_tag: '</mark>' }, 'lamp-1')
    t.equal(shown.title, 'Brass Desk <mark class="hit">Lamp</mark>')
  })

  t.test('strings are HTML-escaped, the tags left as they are', async (t) => {
    const body = await search({ search_term: 'lamp', attributes_to_highlight: ['title'] })
    const xss = body.hits.find((hit) => hit.id === 'xss-1')
    t.equal(xss?._formatted?.title, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; <em>Lamp</em> &amp; Shade')
    t.equal(xss?._formatted?.brand, 'Tom&#39;s &lt;b&gt;Shop&lt;/b&gt;', 'attributes not highlighted as well')
    t.equal(xss?.title, '<script>alert("x")</script> Lamp & Shade', 'the hit itself as stored')
  })

  t.test('case and accents are folded as the search folds them, the text shown as written', async (t) => {
    t.equal((await formatted({ search_term: 'creme', attributes_to_highlight: ['title'] }, 'cushion-1')).title, '<em>Crème</em> Brûlée Cushion')
    t.equal((await formatted({ search_term: 'CRÈME brulee', attributes_to_highlight: ['title'] }, 'cushion-1')).title, '<em>Crème</em> <em>Brûlée</em> Cushion')
  })

  t.test('the last word as a prefix, marked up to what was typed; a typo marks the whole word', async (t) => {
    t.equal((await formatted({ search_term: 'creme cush', attributes_to_highlight: ['title'] }, 'cushion-1')).title, '<em>Crème</em> Brûlée <em>Cush</em>ion')
    t.equal((await formatted({ search_term: 'cushon creme', attributes_to_highlight: ['title'] }, 'cushion-1')).title, '<em>Crème</em> Brûlée <em>Cushion</em>')
  })

  t.test('crop: about crop_length words around the match, the marker where text was cut', async (t) => {
    const crop = (extra: Record<string, unknown>) => formatted({ search_term: 'hotel', ...extra }, 'poster-1')
    const five = await crop({ attributes_to_crop: ['description'], crop_length: 5 })
    t.equal(five.description, '…foxtrot golf hotel india juliett…', 'a marker at both ends')
    t.equal(five.title, 'Radio Alphabet Poster', 'attributes not named are whole')
    t.equal((await crop({ attributes_to_crop: ['description'], attributes_to_highlight: ['description'], crop_length: 5 })).description,
      '…foxtrot golf <em>hotel</em> india juliett…', 'highlighted too when named in both lists')
    const own = await crop({ attributes_to_crop: ['description:3', 'title'], crop_length: 2 })
    t.equal(own.description, '…golf hotel india…', '`attribute:N` crops that attribute to N words')
    t.equal(own.title, 'Radio Alphabet…', 'the others to crop_length; a text without a match keeps its first words')
    t.equal((await crop({ attributes_to_crop: ['description'], crop_length: 5, crop_marker: '[…]' })).description, '[…]foxtrot golf hotel india juliett[…]')
    t.equal((await crop({ attributes_to_crop: ['description'], crop_length: 5, crop_marker: '' })).description, 'foxtrot golf hotel india juliett', 'an empty marker is none')
    t.equal((await crop({ attributes_to_crop: ['description'] })).description, '…charlie delta echo foxtrot golf hotel india juliett kilo lima…', 'Meilisearch\'s 10 words by default')
    t.equal((await formatted({ search_term: 'brass', attributes_to_crop: ['description'], crop_length: 4 }, 'lamp-1')).description, '…Its brass arm folds…',
      'grown on the side that stays inside the sentence')
  })

  t.test('["*"] names every attribute; a dot path a nested one', async (t) => {
    t.same(await formatted({ search_term: 'brass', attributes_to_highlight: ['*'] }, 'lamp-1'), {
      ...LAMP,
      title: '<em>Brass</em> Desk Lamp',
      description: 'A small lamp for the desk. Its <em>brass</em> arm folds flat.',
      tags: ['<em>brass</em>', 'lighting'],
      details: { material: '<em>brass</em>', finish: 'Brushed' }
    }, 'numbers and booleans as they are, arrays element by element, nested objects within')
    const nested = await formatted({ search_term: 'brass', attributes_to_highlight: ['details.material'] }, 'lamp-1')
    t.same(nested.details, { material: '<em>brass</em>', finish: 'Brushed' })
    t.equal(nested.title, 'Brass Desk Lamp')
    const cropped = await formatted({ search_term: 'brass', attributes_to_crop: ['*'], crop_length: 2 }, 'lamp-1')
    t.equal(cropped.title, 'Brass Desk…')
    t.equal(cropped.description, '…Its brass…')
  })

  t.test('an attribute no item has is ignored, as in Meilisearch', async (t) => {
    const shown = await formatted({ search_term: 'lamp', attributes_to_highlight: ['nope', 'title'], attributes_to_crop: ['nope:3'] }, 'lamp-1')
    t.equal(shown.title, 'Brass Desk <em>Lamp</em>')
    t.notOk('nope' in shown)
  })

  t.test('without either list: no _formatted, the answer byte for byte as before', async (t) => {
    const answer = async (extra: Record<string, unknown>) => {
      const res = await send(h.app, shop.key, 'POST', '/search', { search_term: 'lamp', limit: 50, ...extra })
      t.equal(res.statusCode, 200)
      // Each answer has a query_id of its own (POST /events names it); the rest is compared byte for byte.
      return res.body.replace(/"processingTimeMs":\d+/, '"processingTimeMs":0').replace(/"query_id":"[0-9a-f-]{36}"/, '"query_id":""')
    }
    const plain = await answer({})
    t.notOk(plain.includes('_formatted'))
    t.same((JSON.parse(plain) as { hits: Hit[] }).hits.find((hit) => hit.id === 'lamp-1'), LAMP, 'hits are the items as stored')
    t.equal(await answer({ attributes_to_highlight: null, attributes_to_crop: null }), plain, 'null lists are none')
    t.equal(await answer({ crop_length: 3, crop_marker: '~', highlight_pre_tag: '<b>', highlight_post_tag: '</b>' }), plain, 'options without a list change nothing')
  })

  t.test('the cached answer of one request is not another\'s', async (t) => {
    const title = async (extra: Record<string, unknown>) => (await formatted({ search_term: 'lamp', attributes_to_highlight: ['title'], ...extra }, 'lamp-1')).title
    t.equal(await title({}), 'Brass Desk <em>Lamp</em>')
    t.equal(await title({ highlight_pre_tag: '<b>', highlight_post_tag: '</b>' }), 'Brass Desk <b>Lamp</b>', 'other tags')
    t.equal(await title({}), 'Brass Desk <em>Lamp</em>', 'and back')
    const description = async (length: number) => (await formatted({ search_term: 'hotel', attributes_to_crop: ['description'], crop_length: length }, 'poster-1')).description
    t.equal(await description(3), '…golf hotel india…')
    t.equal(await description(5), '…foxtrot golf hotel india juliett…', 'another crop length')
    const plain = (await search({ search_term: 'lamp' })).hits
    t.ok(plain.every((hit) => !('_formatted' in hit)), 'nor is a formatted answer a plain one')
  })

  t.test('with show_ranking_score: both, the score outside _formatted', async (t) => {
    const body = await search({ search_term: 'lamp', attributes_to_highlight: ['title'], show_ranking_score: true })
    const lamp = body.hits.find((hit) => hit.id === 'lamp-1')
    t.type(lamp?._rankingScore, 'number')
    t.notOk('_rankingScore' in (lamp?._formatted ?? {}))
  })

  t.test('options out of bounds are refused with invalid_request', async (t) => {
    const bodies: Array<Record<string, unknown>> = [
      { crop_length: -1 },
      { crop_length: limits.cropLengthMax + 1 },
      { crop_length: 2.5 },
      { attributes_to_highlight: 'title' },
      { attributes_to_highlight: [''] },
      { attributes_to_crop: [1] },
      { attributes_to_highlight: Array.from({ length: limits.formatAttributesMax + 1 }, (_, i) => `a${i}`) },
      { highlight_pre_tag: 'x'.repeat(limits.formatMarkerMaxChars + 1) },
      { highlight_post_tag: 1 },
      { crop_marker: null }
    ]
    for (const extra of bodies) {
      const res = await send(h.app, shop.key, 'POST', '/search', { search_term: 'lamp', ...extra })
      t.equal(res.statusCode, 400, JSON.stringify(extra).slice(0, 60))
      t.equal(res.json().code, 'invalid_request')
    }
  })
}

t.test('the cache key tells highlight and crop options apart, and only those that change the answer', async (t) => {
  const key = (extra: Partial<SearchRequestKey> = {}) => searchKey({ query: 'lamp', limit: 20, offset: 0, ...extra })
  const title = { attributes_to_highlight: ['title'] }
  t.not(key(title), key(), 'a list asks for _formatted')
  t.not(key({ attributes_to_highlight: [] }), key(), 'even an empty one')
  t.not(key({ ...title, highlight_pre_tag: '<b>' }), key(title), 'the tags are in the answer')
  t.not(key({ ...title, highlight_post_tag: '</b>' }), key(title))
  t.not(key({ attributes_to_crop: ['title'], crop_length: 3 }), key({ attributes_to_crop: ['title'], crop_length: 5 }))
  t.not(key({ attributes_to_crop: ['title'], crop_marker: '' }), key({ attributes_to_crop: ['title'] }))
  t.not(key({ attributes_to_crop: ['title:3'] }), key({ attributes_to_crop: ['title:4'] }))
  t.not(key({ attributes_to_crop: ['*:2', 'title:4'] }), key({ attributes_to_crop: ['title:4', '*:2'] }), 'the last entry naming an attribute wins')
  t.not(key(title), key({ attributes_to_crop: ['title'] }))
  t.equal(key({ ...title, highlight_pre_tag: '<em>', highlight_post_tag: '</em>', crop_length: 10, crop_marker: '…' }), key(title), 'the defaults spelled out')
  t.equal(key({ attributes_to_highlight: ['title', 'brand'] }), key({ attributes_to_highlight: ['brand', 'title', 'title'] }), 'highlighted attributes are a set')
  t.equal(key({ highlight_pre_tag: '<b>', crop_length: 3 }), key(), 'options without a list change nothing')
  t.equal(key({ attributes_to_highlight: null, attributes_to_crop: null }), key(), 'null lists are none')
})

for (const engine of ENGINES) t.test(`highlight and crop (${engine} engine)`, suite(engine))
