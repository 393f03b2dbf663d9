import t from 'tap'
import { EmbeddingsModel } from '@energetic-ai/embeddings'
import { PieceTokenizer, readVocabulary, UNKNOWN_PIECE } from '../src/pieces.js'

const vocabulary = readVocabulary()
const tokenizer = new PieceTokenizer(vocabulary)
// The port's own tokenizer, as USE-lite uses it (its constructor builds nothing else without a model).
const reference = new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer

/** A deterministic generator, so that a failure names a text that can be tried again. */
function random (seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
}

t.test('splits every text into the pieces USE-lite’s own tokenizer gives', async (t) => {
  const r = random(7)
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!
  const pieces = vocabulary.slice(6).map(([piece]) => piece.replace(/\u2581/g, ' '))
  const odd = ['é', 'ﬁ', '①', '😀', '👩‍👩‍👧', '\n', '\t', '  ', 'ǅ', '中文', '\u0301', '\uFFFD', '𝔘', 'Straße', 'İ', '½']
  const texts = [
    '', ' ', 'a', 'Waterproof Hiking Boots, size 42 — $129.99!', 'do you sell sofas?', 'USB-C 65W charger (2-pack)',
    'my laptop won\'t power on, even plugged in', 'ÉCOLE ﬁnale ①②③', '😀😀 emoji only 😀', 'tab\tand\nnewline', 'x'.repeat(300)
  ]
  for (let i = 0; i < 400; i++) {
    const parts = Array.from({ length: 1 + Math.floor(r() * 30) }, () => r() < 0.8 ? pick(pieces) : pick(odd))
    texts.push(parts.join(r() < 0.5 ? '' : ' '))
  }
  let differing = 0
  for (const text of texts) {
    const mine = tokenizer.encode(text)
    const theirs = reference.encode(text)
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
      differing++
      if (differing <= 3) t.same(mine, theirs, `the same pieces for ${JSON.stringify(text)}`)
    }
  }
  t.equal(differing, 0, `all ${texts.length} texts split alike`)
})

t.test('a run of characters no piece holds is one unknown piece', async (t) => {
  const ids = tokenizer.encode('ok 😀😀😀 ok')
  t.equal(ids.filter((id) => id === UNKNOWN_PIECE).length, 1)
  t.same(tokenizer.encode(''), [])
})
