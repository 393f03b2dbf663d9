import t from 'tap'
import { loadEmbedder } from '../src/index.js'

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
