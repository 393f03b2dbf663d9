import t from 'tap'
import { Batcher, createPooledEmbedder, inThreadEmbedder } from '../src/index.js'

const texts = ['waterproof hiking boots', 'a stainless steel frying pan', 'noise cancelling headphones', 'X5', '🎧', 'a gift for a five year old who likes dinosaurs']

function maxDifference (a: Float32Array, b: Float32Array): number {
  let max = 0
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!))
  return max
}

t.test('the pool embeds on worker threads into the vectors of the in-thread model', async (t) => {
  const pool = await createPooledEmbedder(1)
  t.teardown(() => pool.close())
  const reference = await inThreadEmbedder()
  t.equal(pool.dimensions, 512)
  const many = Array.from({ length: 150 }, (_, i) => `${texts[i % texts.length]} ${i}`)
  for (const input of [texts, many]) {
    const [pooled, local] = await Promise.all([pool.embed(input), reference.embed(input)])
    t.equal(pooled.length, input.length, `${input.length} texts: one vector each`)
    t.ok(pooled.every((v, i) => maxDifference(v, local[i]!) < 1e-5), `${input.length} texts: each within 1e-5 of the in-thread vector`)
  }
  t.same(await pool.embed([]), [], 'no texts, no vectors')
})

t.test('concurrent calls go to the thread as one batch, and each caller gets its own vectors in order', async (t) => {
  const pool = await createPooledEmbedder(1)
  t.teardown(() => pool.close())
  const reference = await inThreadEmbedder()
  const expected = await reference.embed(texts)

  const before = pool.stats
  const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => pool.embed([texts[i % texts.length]!])))
  t.same(pool.stats, { batches: before.batches + 1, texts: before.texts + 32 }, '32 callers of one text each: one batch of 32')
  t.ok(answers.every(([v], i) => maxDifference(v!, expected[i % texts.length]!) < 1e-5), 'each caller has the vector of its own text')

  // A call larger than a batch is split; the callers behind it still get theirs, and its vectors stay in order.
  // (Distinct texts: a call's repeated texts are embedded once, see embedByLength.)
  const big = Array.from({ length: 100 }, (_, i) => `${texts[i % texts.length]!} ${i}`)
  const bigExpected = await reference.embed(big)
  const second = pool.stats
  const [bigVectors, small, reversed] = await Promise.all([pool.embed(big), pool.embed([texts[1]!]), pool.embed([...texts].reverse())])
  t.same(pool.stats, { batches: second.batches + 2, texts: second.texts + 100 + 1 + texts.length }, '107 texts in two batches of at most 64')
  t.ok(bigVectors.every((v, i) => maxDifference(v, bigExpected[i]!) < 1e-5), 'the split call keeps its order')
  t.ok(maxDifference(small[0]!, expected[1]!) < 1e-5, 'the small call behind it')
  t.ok(reversed.every((v, i) => maxDifference(v, expected[texts.length - 1 - i]!) < 1e-5), 'the last call, in its own order')

  // Calls made while the thread is busy wait for it, and then go together, even from different turns of the event loop.
  const third = pool.stats
  const full = pool.embed(big.slice(0, 64))
  const later: Array<Promise<Float32Array[]>> = []
  for (const text of texts) {
    await new Promise((resolve) => setImmediate(resolve))
    later.push(pool.embed([text]))
  }
  await Promise.all([full, ...later])
  t.same(pool.stats.batches - third.batches, 2, 'a busy thread: a batch of 64, then the 6 later calls in one')
})

t.test('blank texts get the zero vector without being sent to a thread', async (t) => {
  const pool = await createPooledEmbedder(1)
  t.teardown(() => pool.close())
  const before = pool.stats
  const vectors = await pool.embed(['', 'X5', '   ', '\n'])
  t.equal(vectors.length, 4)
  t.ok([0, 2, 3].every((i) => vectors[i]!.every((x) => x === 0)), 'the blank ones: zero vectors, in their places')
  t.ok(vectors[1]!.some((x) => x !== 0), 'the other one: a vector')
  t.same(pool.stats.texts - before.texts, 1, 'only the text with something in it was sent')
  t.same(await pool.embed(['', ' ']), [new Float32Array(512), new Float32Array(512)], 'only blanks: nothing sent')
})

t.test('close() ends the threads; calls waiting and later calls are refused', async (t) => {
  const pool = await createPooledEmbedder(1)
  const waiting = t.rejects(pool.embed(['still waiting']), { message: 'the embedder is closed' })
  await pool.close()
  await waiting
  await t.rejects(pool.embed(['too late']), { message: 'the embedder is closed' })
  t.same(await pool.embed(['']), [new Float32Array(512)], 'a blank text needs no thread')
})

t.test('a pool needs a thread', async (t) => {
  await t.rejects(createPooledEmbedder(0), RangeError)
})

t.test('a failed batch rejects only the caller whose input failed; the batcher keeps serving', async (t) => {
  const sent: string[][] = []
  const batcher = new Batcher(async (batch) => {
    sent.push(batch)
    if (batch.includes('bad')) throw new Error('cannot embed "bad"')
    return batch.map((text) => Float32Array.of(text.length))
  }, { maxBatch: 64, concurrency: 1 })
  const [good, bad, other] = await Promise.allSettled([batcher.embed(['a', 'bb']), batcher.embed(['bad']), batcher.embed(['cccc'])])
  t.same(good, { status: 'fulfilled', value: [Float32Array.of(1), Float32Array.of(2)] })
  t.equal(bad.status, 'rejected')
  t.match((bad as PromiseRejectedResult).reason, { message: 'cannot embed "bad"' })
  t.same(other, { status: 'fulfilled', value: [Float32Array.of(4)] })
  t.same(sent, [['a', 'bb', 'bad', 'cccc'], ['a', 'bb'], ['bad'], ['cccc']], 'one batch, then each caller alone')

  await t.rejects(batcher.embed(['bad']), { message: 'cannot embed "bad"' }, 'a caller alone in a batch is not tried twice')
  t.same(sent.length, 5)
  t.same(await batcher.embed(['ok']), [Float32Array.of(2)], 'later calls are served')
})

t.test('a batcher that gets the wrong number of vectors rejects its callers', async (t) => {
  const batcher = new Batcher(async () => [], { maxBatch: 64, concurrency: 1 })
  await t.rejects(batcher.embed(['a']), { message: 'the embedder returned 0 vectors for 1 texts' })
})
