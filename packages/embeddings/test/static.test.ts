import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { isUsableVector, loadEmbedder, loadStaticEmbedder, STATIC_EMBEDDER_ID } from '../src/index.js'

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)

t.test('the piece table is built once from USE-lite, saved whole, and rebuilt when its file is damaged', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-pieces-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'table.f32')
  const builds: number[] = []
  const first = await loadStaticEmbedder({ file, onBuilt: (ms) => builds.push(ms) })
  t.equal(builds.length, 1, 'built when there was no file')
  t.equal((await stat(file)).size, first.tableBytes, 'saved whole')
  t.equal(first.tableBytes, 8000 * 512 * 4, 'one row of 512 floats per piece')

  const again = await loadStaticEmbedder({ file, onBuilt: (ms) => builds.push(ms) })
  t.equal(builds.length, 1, 'read from the file the next time')
  const texts = ['waterproof hiking boots', 'a stainless steel frying pan']
  t.same((await again.embed(texts)).map((v) => Array.from(v)), (await first.embed(texts)).map((v) => Array.from(v)), 'the same vectors from the file')

  await writeFile(file, (await readFile(file)).subarray(0, 1000))
  const rebuilt = await loadStaticEmbedder({ file, onBuilt: (ms) => builds.push(ms) })
  t.equal(builds.length, 2, 'a cut file is not used: the table is built again')
  t.equal((await stat(file)).size, rebuilt.tableBytes)
})

t.test('a word of one piece gets USE-lite’s own vector for it, less the direction all texts share', async (t) => {
  const staticEmbedder = await loadStaticEmbedder()
  const useLite = await loadEmbedder({ threads: 0 })
  const words = ['laptop', 'shoes', 'mouse', 'jacket', 'guitar', 'coffee'] // each one piece of the vocabulary
  const mine = await staticEmbedder.embed(words)
  const model = await useLite.embed(words)
  for (const [i, word] of words.entries()) {
    const own = dot(mine[i]!, model[i]!)
    const others = Math.max(...words.map((_, j) => j === i ? -1 : dot(mine[i]!, model[j]!)))
    t.ok(own > 0.8 && own > others + 0.2, `${word}: cosine ${own.toFixed(3)} with USE-lite's vector of it, at most ${others.toFixed(3)} with the others'`)
  }
  // Lower case first: USE-lite's vocabulary is cased, and title-case product names ("Laptop") would
  // otherwise fall apart into letters that mean nothing alone.
  const [title] = await staticEmbedder.embed(['Laptop'])
  const [lower] = await staticEmbedder.embed(['laptop'])
  t.same(Array.from(title!), Array.from(lower!), 'case does not change a vector')
})

t.test('unit vectors that capture meaning; the zero vector for a text with nothing in it', async (t) => {
  const embedder = await loadStaticEmbedder()
  t.equal(await loadStaticEmbedder(), embedder, 'loaded once per process')
  t.equal(embedder.dimensions, 512)
  t.equal(STATIC_EMBEDDER_ID, 'use-lite-static-v1:512')
  const [boots, paraphrase, pan, blank, emoji, empty] = await embedder.embed(['waterproof hiking boots', 'boots to keep my feet dry on muddy trails', 'a stainless steel frying pan', '   ', '🎧', ''])
  t.ok(Math.abs(dot(boots!, boots!) - 1) < 1e-5, 'unit length')
  t.ok(dot(boots!, paraphrase!) > dot(boots!, pan!), 'a paraphrase is closer than an unrelated product')
  // Without the direction all sums of pieces share, unrelated texts are about as far apart as with
  // USE-lite (a cosine of 0.2 or so), not 0.8 as the plain sums were.
  t.ok(dot(boots!, pan!) < 0.3, `unrelated products: cosine ${dot(boots!, pan!).toFixed(3)}`)
  t.notOk(isUsableVector(blank), 'white space: the zero vector')
  t.notOk(isUsableVector(empty), 'empty: the zero vector')
  t.notOk(isUsableVector(emoji), 'nothing the vocabulary holds: the zero vector')
  const many = await embedder.embed(Array.from({ length: 600 }, (_, i) => `item ${i}`))
  t.equal(many.length, 600, 'more texts than one slice, in order')
  t.same(Array.from(many[599]!), Array.from((await embedder.embed(['item 599']))[0]!), 'the same vector alone or among others')
  t.same(await embedder.embed([]), [])
})
