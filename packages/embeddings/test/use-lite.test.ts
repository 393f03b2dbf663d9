import t from 'tap'
import { isUsableVector, loadEmbedder } from '../src/index.js'

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)

t.test('USE-lite embeds offline into unit vectors that capture meaning', async (t) => {
  const embedder = await loadEmbedder()
  t.equal(await loadEmbedder(), embedder, 'loaded once per process')
  const texts = ['waterproof hiking boots', 'shoes that keep my feet dry on muddy trails', 'a stainless steel frying pan']
  const [boots, paraphrase, pan] = await embedder.embed(texts)
  t.equal(boots!.length, 512)
  t.equal(embedder.dimensions, 512)
  t.ok(Math.abs(dot(boots!, boots!) - 1) < 1e-5, 'unit length')
  t.ok(dot(boots!, paraphrase!) > dot(boots!, pan!), 'a paraphrase is closer than an unrelated product')
  const many = await embedder.embed(Array.from({ length: 130 }, (_, i) => `item ${i}`))
  t.equal(many.length, 130, 'batches are stitched back in order')
  t.same(Array.from(many[0]!.slice(0, 5)), Array.from((await embedder.embed(['item 0']))[0]!.slice(0, 5)), 'batching does not change a vector')
  t.same(await embedder.embed([]), [])
})

t.test('a text with nothing to embed gets the zero vector, in its place; every other text its own vector', async (t) => {
  const embedder = await loadEmbedder()
  const norm = (v: Float32Array) => Math.sqrt(dot(v, v))
  // An empty text encodes to no token at all: the model refuses it alone, and drops it from the end
  // of a batch (one vector fewer than texts), so each position is checked against a lone embedding.
  const texts = ['', 'X5', '   ', '4K', '🎧', '12345', '?!', '']
  const vectors = await embedder.embed(texts)
  t.equal(vectors.length, texts.length, 'one vector per text')
  for (const [i, text] of texts.entries()) {
    const vector = vectors[i]!
    t.equal(vector.length, 512, JSON.stringify(text))
    if (text.trim() === '') {
      t.ok(vector.every((x) => x === 0), `${JSON.stringify(text)}: the zero vector (no meaning)`)
    } else {
      t.ok(Math.abs(norm(vector) - 1) < 1e-5, `${JSON.stringify(text)}: a unit vector`)
      const [alone] = await embedder.embed([text])
      t.ok(dot(vector, alone!) > 0.9999, `${JSON.stringify(text)}: the same vector as embedded alone`)
    }
  }
  t.same((await embedder.embed(['']))[0], new Float32Array(512), 'alone too')
  t.ok(vectors.every((v) => v.every(Number.isFinite)), 'no NaN anywhere')
})

t.test('isUsableVector tells a vector that stands for a text from a zero or broken one', async (t) => {
  t.ok(isUsableVector(Float32Array.from([0.6, 0.8])))
  t.notOk(isUsableVector(new Float32Array(4)), 'zero')
  t.notOk(isUsableVector(Float32Array.from([NaN, 1])), 'NaN')
  t.notOk(isUsableVector(Float32Array.from([Infinity, 0])), 'infinite')
  t.notOk(isUsableVector(undefined), 'missing')
})

t.test('embedByLength sends each distinct text once, shortest first, and gives every caller its own vector', async (t) => {
  const { embedByLength } = await import('../src/embedder.js')
  const sent: string[][] = []
  const vectorsOf = async (texts: string[]) => {
    sent.push(texts)
    return texts.map((text) => Float32Array.from([text.length, text.charCodeAt(0)]))
  }
  const texts = ['a longer text', 'b', 'a longer text', 'mid text', 'b']
  const vectors = await embedByLength(texts, vectorsOf)
  t.same(sent, [['b', 'mid text', 'a longer text']], 'one call, distinct texts, by length')
  t.same(vectors.map((v) => Array.from(v)), texts.map((text) => [text.length, text.charCodeAt(0)]), 'each text its own vector, in order')
  t.not(vectors[0], vectors[2], 'a repeated text gets a copy, not the same array')
  t.same(await embedByLength([], vectorsOf), [])
  await t.rejects(embedByLength(['x', 'y'], async () => [new Float32Array(2)]), /returned 1 vectors for 2 texts/)
})

t.test('the pool embeds a catalog slice by length and returns the vectors as embedded one by one', async (t) => {
  const embedder = await loadEmbedder()
  const texts = ['a stainless steel frying pan with a glass lid, oven safe', 'boots', 'waterproof hiking boots for muddy trails', 'boots']
  const vectors = await embedder.embed(texts)
  for (const [i, text] of texts.entries()) {
    const [alone] = await embedder.embed([text])
    t.ok(dot(vectors[i]!, alone!) > 0.9999, `${text}: the same vector as alone`)
  }
})
