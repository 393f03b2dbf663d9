// engine/format.ts alone: how a hit's _formatted is computed from the query's words, the same on
// every engine (the API's behaviour on both is highlight.test.ts's).
import t from 'tap'
import { cropRule, escapeHtml, formatHit, formatOptions, type FormatOptions } from '../src/engine/format.js'
import { queryWords } from '../src/text.js'

const BASE: FormatOptions = { highlight: ['text'], crop: [], preTag: '<em>', postTag: '</em>', marker: '…' }
/** `text` as _formatted shows it for `query`, highlighted unless the options say otherwise. */
const shown = (text: string, query: string, options: Partial<FormatOptions> = {}) =>
  formatHit({ id: 'x', text }, queryWords(query), { ...BASE, ...options }).text
const cropped = (text: string, query: string, length: number, options: Partial<FormatOptions> = {}) =>
  shown(text, query, { highlight: [], crop: [{ pattern: 'text', length }], ...options })

const ALPHABET = 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa'

t.test('query words are marked in the text as written', async (t) => {
  t.equal(shown('Brass Desk Lamp', 'lamp'), 'Brass Desk <em>Lamp</em>')
  t.equal(shown('Brass Desk Lamp', 'desk lamp'), 'Brass <em>Desk</em> <em>Lamp</em>', 'each word on its own')
  t.equal(shown('Brass Desk Lamp', 'chair'), 'Brass Desk Lamp', 'nothing to mark')
  t.equal(shown('Brass Desk Lamp', ''), 'Brass Desk Lamp', 'an empty query marks nothing')
  t.equal(shown('Crème Brûlée', 'creme BRULEE'), '<em>Crème</em> <em>Brûlée</em>', 'case and accents folded as the engine folds them')
  t.equal(shown('Cre\u0301me', 'creme'), '<em>Cre\u0301me</em>', 'a decomposed accent too')
  t.equal(shown('Brass Desk Lamp', 'lamp', { preTag: '<mark class="hit">', postTag: '</mark>' }), 'Brass Desk <mark class="hit">Lamp</mark>', 'the tags as given')
})

t.test('the last word also as a prefix, marked up to what was typed', async (t) => {
  t.equal(shown('Cushions and cushion covers', 'cush'), '<em>Cush</em>ions and <em>cush</em>ion covers')
  t.equal(shown('Crème', 'cre'), '<em>Crè</em>me', 'the prefix ends after the accented letter')
  t.equal(shown('Cre\u0301me', 'crem'), '<em>Cre\u0301m</em>e', 'with the mark on its last letter')
  t.equal(shown('Linen jackets', 'jacket'), 'Linen <em>jacket</em>s', 'a longer word starting with the last is a prefix match, not a typo')
  t.equal(shown('Cushion lamp', 'cush lamp'), 'Cushion <em>lamp</em>', 'only the last word is a prefix')
  t.equal(shown('Apple a day', 'a'), 'Apple <em>a</em> day', 'a one-letter last word matches whole words only')
})

t.test('typos by word length, as the engine tolerates them, marked whole', async (t) => {
  t.equal(shown('Velvet Armchair', 'velvit armchair'), '<em>Velvet</em> <em>Armchair</em>', 'one typo from 5 letters')
  t.equal(shown('Velvet Armchair', 'velevt chair'), '<em>Velvet</em> Armchair', 'a swap of neighbours is one typo')
  t.equal(shown('Desk Lamp', 'dusk lamp'), 'Desk <em>Lamp</em>', 'none under 5 letters')
  t.equal(shown('Batch of watches', 'watch'), 'Batch of <em>watch</em>es', 'a typo on the first letter counts as two')
  t.equal(shown('Wireless headphones', 'hedphnoes wireless'), '<em>Wireless</em> <em>headphones</em>', '9 letters allow two')
  t.equal(shown('Wireless headphones', 'hedphnos wireless'), '<em>Wireless</em> headphones', '8 letters one')
})

t.test('strings are HTML-escaped, the tags and markers excepted', async (t) => {
  t.equal(escapeHtml('<a href="x">Tom\'s & co</a>'), '&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; co&lt;/a&gt;')
  t.equal(shown('<script>alert("x")</script> Lamp & Shade', 'lamp'), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; <em>Lamp</em> &amp; Shade')
  t.equal(shown('<b>Tom</b>', 'tom'), '&lt;b&gt;<em>Tom</em>&lt;/b&gt;')
  const hit = { id: '<1>', text: 'Lamp', other: '<i>not highlighted</i>' }
  t.same(formatHit(hit, queryWords('lamp'), BASE), { id: '&lt;1&gt;', text: '<em>Lamp</em>', other: '&lt;i&gt;not highlighted&lt;/i&gt;' },
    'every string of _formatted, highlighted or not')
  t.same(hit, { id: '<1>', text: 'Lamp', other: '<i>not highlighted</i>' }, 'the hit itself is left as it is')
  t.equal(cropped(`<b>${ALPHABET}</b>`, 'hotel', 3, { marker: '<span>…</span>' }), '<span>…</span>golf hotel india<span>…</span>')
})

t.test('a crop keeps about `length` words around the best match', async (t) => {
  t.equal(cropped(ALPHABET, 'hotel', 5), '…foxtrot golf hotel india juliett…', 'words taken before and after in turn, markers at both cuts')
  t.equal(cropped(ALPHABET, 'hotel', 5, { highlight: ['text'] }), '…foxtrot golf <em>hotel</em> india juliett…', 'highlighted as well')
  t.equal(cropped(ALPHABET, 'bravo', 5), 'alpha bravo charlie delta echo…', 'no marker where nothing was cut')
  t.equal(cropped(ALPHABET, 'papa', 3), '…november oscar papa')
  t.equal(cropped(ALPHABET, 'zulu', 4), 'alpha bravo charlie delta…', 'without a match: the first words')
  t.equal(cropped(ALPHABET, '', 2), 'alpha bravo…', 'an empty query as well')
  t.equal(cropped('(alpha bravo charlie), delta.', 'zulu', 3), '(alpha bravo charlie…', 'what precedes the first word stays with it')
  t.equal(cropped('alpha bravo charlie.', 'zulu', 3), 'alpha bravo charlie.', 'a text of `length` words or fewer is whole')
  t.equal(cropped(ALPHABET, 'hotel', 0), ALPHABET, '0 keeps the whole text')
  t.equal(cropped(ALPHABET, 'hotel', 3, { marker: '' }), 'golf hotel india', 'an empty marker is none')
  t.equal(cropped('lamp one two three four five six seven brass lamp eight', 'brass lamp', 3, { highlight: ['text'] }),
    '…seven <em>brass</em> <em>lamp</em>…', 'around the most distinct query words closest together, not the first match')
  t.equal(cropped('A small lamp for the desk. Its brass arm folds flat.', 'brass', 4), '…Its brass arm folds…',
    'grown on the side still inside the sentence')
  t.equal(cropped('Donatello is a skilled and smart turtle. Leonardo is the most skilled turtle. Raphael is the strongest turtle.', 'turtle', 7),
    'Donatello is a skilled and smart turtle…', 'Meilisearch\'s documented example: the first occurrence, within its sentence')
  t.equal(cropped('Donatello is a skilled and smart turtle. Leonardo is the most skilled turtle. Raphael is the strongest turtle.', 'skilled turtle', 6),
    '…Leonardo is the most skilled turtle…', 'and its two-word one: the closest pair')
})

t.test('attributes: patterns, dot paths, arrays, other values', async (t) => {
  const hit = {
    id: 'lamp-1',
    title: 'Brass Desk Lamp',
    price: 45,
    in_stock: true,
    discontinued: null,
    tags: ['brass', 'lighting', 7],
    details: { material: 'brass', finish: 'Brushed', sizes: [{ name: 'brass small' }] }
  }
  const words = queryWords('brass')
  const options = (highlight: string[], crop: FormatOptions['crop'] = []) => ({ ...BASE, highlight, crop })
  t.same(formatHit(hit, words, options(['*'])), {
    id: 'lamp-1',
    title: '<em>Brass</em> Desk Lamp',
    price: 45,
    in_stock: true,
    discontinued: null,
    tags: ['<em>brass</em>', 'lighting', 7],
    details: { material: '<em>brass</em>', finish: 'Brushed', sizes: [{ name: '<em>brass</em> small' }] }
  }, '["*"]: every string; numbers, booleans and null as they are; arrays element by element')
  t.same(formatHit(hit, words, options(['details.material'])).details, { material: '<em>brass</em>', finish: 'Brushed', sizes: [{ name: 'brass small' }] },
    'a dot path names one nested attribute')
  t.equal(formatHit(hit, words, options(['details.material'])).title, 'Brass Desk Lamp', 'and no other')
  t.same(formatHit(hit, words, options(['details'])).details, { material: '<em>brass</em>', finish: 'Brushed', sizes: [{ name: '<em>brass</em> small' }] },
    'an attribute covers what is nested in it, through arrays')
  t.same(formatHit(hit, words, options(['nope', 'price'])), hit, 'an unknown attribute is ignored, a number stays one')
  t.equal(formatHit(hit, words, options([], [{ pattern: '*', length: 2 }, { pattern: 'title', length: 1 }])).title, 'Brass…',
    'the last rule naming an attribute sets its length')
  t.equal(formatHit(hit, words, options([], [{ pattern: 'title', length: 1 }, { pattern: '*', length: 2 }])).title, 'Brass Desk…', 'whichever it is')

  const hostile = JSON.parse('{"id":"x","__proto__":{"polluted":"lamp"},"nested":{"constructor":"Lamp"}}') as Record<string, unknown>
  const formatted = formatHit(hostile, queryWords('lamp'), options(['*']))
  t.same(Object.keys(formatted), ['id', '__proto__', 'nested'], 'keys are copied as own properties')
  t.equal(Object.getPrototypeOf(formatted), Object.prototype, 'not as a prototype')
  t.same(Object.getOwnPropertyDescriptor(formatted, '__proto__')?.value, { polluted: '<em>lamp</em>' })
  t.equal(Object.getOwnPropertyDescriptor(formatted.nested, 'constructor')?.value, '<em>Lamp</em>')
})

t.test('attributes_to_crop entries and the request options', async (t) => {
  t.same(cropRule('description', 10), { pattern: 'description', length: 10 })
  t.same(cropRule('description:3', 10), { pattern: 'description', length: 3 })
  t.same(cropRule('a:b:4', 10), { pattern: 'a:b', length: 4 }, 'the attribute goes to the last colon')
  t.same(cropRule('a:b', 10), { pattern: 'a', length: 10 }, 'a length that is no number is crop_length, as Meilisearch reads it')
  t.same(cropRule('a:', 7), { pattern: 'a', length: 7 })

  t.equal(formatOptions({}), undefined, 'neither list: no _formatted')
  t.equal(formatOptions({ attributes_to_highlight: null, attributes_to_crop: null, highlight_pre_tag: '<b>', crop_length: 3 }), undefined, 'null is none, whatever the options')
  t.same(formatOptions({ attributes_to_highlight: ['title'] }), { highlight: ['title'], crop: [], preTag: '<em>', postTag: '</em>', marker: '…' }, 'Meilisearch\'s defaults')
  t.same(formatOptions({ attributes_to_crop: ['description', 'title:3'], crop_length: 5, crop_marker: '', highlight_pre_tag: '[', highlight_post_tag: ']' }), {
    highlight: [],
    crop: [{ pattern: 'description', length: 5 }, { pattern: 'title', length: 3 }],
    preTag: '[',
    postTag: ']',
    marker: ''
  })
  t.same(formatOptions({ attributes_to_highlight: [] })?.highlight, [], 'an empty list still asks for _formatted')
})
