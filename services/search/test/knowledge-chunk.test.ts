import fc from 'fast-check'
import t from 'tap'
import { CHUNK_MAX, chunkPage, faqChunks } from '../src/knowledge/chunk.js'
import { parseMarkdown } from '../src/knowledge/parse/index.js'
import { chunkEmbeddingText } from '../src/knowledge/ingest.js'
import type { Block, ParsedPage } from '../src/knowledge/types.js'

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
const sentencesOf = (text: string): string[] => [...sentenceSegmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s !== '')

t.test('chunks follow headings, keep the path as section, and link to the nearest anchor', async (t) => {
  const page = parseMarkdown('# Help\n\nIntro.\n\n## Returns\n\nWithin 30 days.\n\n- Pack it\n- Send it\n\n## Shipping\n\nThree days.', 'help', 'https://shop.example/help#old')
  t.same(chunkPage(page), [
    { id: '0', section: 'Help', text: 'Intro.', url: 'https://shop.example/help#help' },
    { id: '1', section: 'Help › Returns', text: 'Within 30 days.\nPack it\nSend it', url: 'https://shop.example/help#returns' },
    { id: '2', section: 'Help › Shipping', text: 'Three days.', url: 'https://shop.example/help#shipping' }
  ])
})

t.test('no url without a page url; the page url alone without an anchor; empty section before any heading', async (t) => {
  t.same(chunkPage({ title: 'x', blocks: [{ path: [], text: 'Hello.' }] }), [{ id: '0', section: '', text: 'Hello.' }])
  t.same(chunkPage({ title: 'x', url: 'https://a.example/p', blocks: [{ path: [], text: 'Hello.' }] }), [{ id: '0', section: '', text: 'Hello.', url: 'https://a.example/p' }])
  t.same(chunkPage({ title: 'x', blocks: [] }), [])
})

t.test('blocks with different anchors (PDF pages) are never merged, even when small', async (t) => {
  const page: ParsedPage = { title: 'p', url: 'https://a.example/f.pdf', blocks: [{ path: [], anchor: 'page=1', text: 'One.' }, { path: [], anchor: 'page=2', text: 'Two.' }] }
  t.same(chunkPage(page).map((chunk) => chunk.url), ['https://a.example/f.pdf#page=1', 'https://a.example/f.pdf#page=2'])
})

t.test('an overlong block is split between sentences, packed up to max', async (t) => {
  const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something about returns and refunds here.`)
  const chunks = chunkPage({ title: 'x', blocks: [{ path: ['A'], text: sentences.join(' ') }] }, { target: 300, max: 400 })
  t.ok(chunks.length > 1)
  for (const chunk of chunks) {
    t.ok(chunk.text.length <= 400)
    t.equal(chunk.section, 'A')
  }
  t.same(chunks.flatMap((chunk) => sentencesOf(chunk.text)), sentences, 'every sentence whole, in order')
})

t.test('a long block (880 KB, 20,000 sentences) is chunked in linear time with every sentence whole', async (t) => {
  const sentences = Array.from({ length: 20_000 }, (_, i) => `Sentence ${i} says something about returns.`)
  const started = Date.now()
  const chunks = chunkPage({ title: 'x', blocks: [{ path: [], text: sentences.join(' ') }] })
  t.ok(Date.now() - started < 3000, `chunked in ${Date.now() - started} ms`)
  t.ok(chunks.every((chunk) => chunk.text.length <= CHUNK_MAX))
  t.same(chunks.flatMap((chunk) => chunk.text.split(/ (?=Sentence )/)), sentences)
})

t.test('a single sentence longer than max is cut at word boundaries, a word longer than max where it must be', async (t) => {
  const words = Array.from({ length: 400 }, (_, i) => `word${i}`)
  const long = words.join(' ') + '.'
  const chunks = chunkPage({ title: 'x', blocks: [{ path: [], text: long }] })
  t.ok(chunks.every((chunk) => chunk.text.length <= CHUNK_MAX))
  t.same(chunks.flatMap((chunk) => chunk.text.replace(/\.$/, '').split(' ')), words, 'no word cut')
  const blob = 'x'.repeat(3000)
  const cut = chunkPage({ title: 'x', blocks: [{ path: [], text: blob }] })
  t.same(cut.map((chunk) => chunk.text.length), [1200, 1200, 600])
  const emoji = '😀'.repeat(700)
  t.ok(chunkPage({ title: 'x', blocks: [{ path: [], text: emoji }] }).every((chunk) => !/[\uD800-\uDBFF]$/.test(chunk.text)), 'no surrogate pair cut in half')
})

t.test('faq: one chunk holding question and answer', async (t) => {
  t.same(faqChunks(' How long is the warranty? ', 'Two years.', 'https://a.example/faq#warranty'), [
    { id: '0', section: '', text: 'How long is the warranty?\nTwo years.', url: 'https://a.example/faq#warranty' }
  ])
  t.same(faqChunks('Q?', 'A.'), [{ id: '0', section: '', text: 'Q?\nA.' }])
})

/** A sentence the segmenter ends where we do: a capital, words, a unique tag, a full stop. */
const sentenceArb = (tag: number) => fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 0, maxLength: 30 })
  .map((words) => `Tag${tag} ${words.join(' ')}.`)

const blocksArb: fc.Arbitrary<Block[]> = fc.array(
  fc.record({ section: fc.integer({ min: 0, max: 3 }), anchor: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }), sentences: fc.integer({ min: 1, max: 12 }) }),
  { minLength: 0, maxLength: 25 }
).chain((shapes) => {
  let tag = 0
  return fc.tuple(...shapes.map((shape) => fc.tuple(...Array.from({ length: shape.sentences }, () => sentenceArb(tag++)))
    .map((sentences) => ({ path: shape.section === 0 ? [] : ['Top', `Part ${shape.section}`], ...(shape.anchor === undefined ? {} : { anchor: shape.anchor }), text: sentences.join(' ') }))))
})

t.test('property: no chunk over max, every sentence whole in exactly one chunk of its own section and anchor', async (t) => {
  fc.assert(fc.property(blocksArb, fc.integer({ min: 200, max: 1500 }), (blocks, max) => {
    const chunks = chunkPage({ title: 'p', url: 'https://a.example/p', blocks }, { max, target: Math.floor(max * 2 / 3) })
    for (const chunk of chunks) if (chunk.text.length > max) return false
    if (!chunks.every((chunk, i) => chunk.id === String(i))) return false
    for (const block of blocks) {
      for (const sentence of sentencesOf(block.text)) {
        const tag = sentence.split(' ')[0]!
        const holding = chunks.filter((chunk) => chunk.text.split(/\n| (?=Tag\d+ )/).some((piece) => piece === sentence))
        if (sentence.length <= max) {
          if (holding.length !== 1) return false
          const chunk = holding[0]!
          if (chunk.section !== block.path.join(' › ')) return false
          if (chunk.url !== 'https://a.example/p' + (block.anchor === undefined ? '' : '#' + block.anchor)) return false
        } else if (!chunks.some((chunk) => chunk.text.startsWith(tag + ' '))) {
          return false
        }
      }
    }
    return true
  }), { numRuns: 100 })
  t.pass('held for 100 generated pages')
})

t.test('what is embedded of a chunk: its page\'s title, heading path and opening, 300 characters at most', async (t) => {
  const document = { id: 'returns', kind: 'page' as const, title: 'Returns', format: 'markdown' as const, content: '' }
  const long = 'You can send back any item within 30 days of delivery. '.repeat(20)
  const text = chunkEmbeddingText(document, { id: '1', section: 'Returns › Time limits', text: long })
  t.equal(text.length, 300, 'a long chunk is cut')
  t.ok(text.startsWith('Returns. Returns › Time limits. You can send back any item within 30 days'), text.slice(0, 80))
  t.equal(chunkEmbeddingText(document, { id: '0', section: '', text: 'Short.' }), 'Returns. Short.', 'an empty part is left out')
})
