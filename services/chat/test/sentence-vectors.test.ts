import t from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { SENTENCE_CACHE_ENTRIES, SentenceVectors } from '../src/assistant/sentence-vectors.js'

/** Unit vectors along one of two axes, by the text's last digit: enough to tell similarities apart. */
const embedder: Embedder & { calls: number } = {
  dimensions: 2,
  calls: 0,
  async embed (texts) {
    this.calls++
    return texts.map((text) => Number(text.at(-1)) % 2 === 0 ? new Float32Array([1, 0]) : new Float32Array([0, 1]))
  }
}

t.test('SentenceVectors: similarities from cached vectors, the cache bounded by SENTENCE_CACHE_ENTRIES', async (t) => {
  const vectors = new SentenceVectors(embedder)
  t.same(await vectors.similarities('message 0', ['sentence 2', 'sentence 3']), [1, 0])
  t.equal(vectors.size, 3, 'the message and both sentences are kept')
  const calls = embedder.calls
  await vectors.similarities('message 0', ['sentence 2'])
  t.equal(embedder.calls, calls, 'known texts are not embedded again')

  // Filled past its cap, in batches as turns would: it stays at the cap, the least recently used out.
  const total = SENTENCE_CACHE_ENTRIES + 500
  for (let i = 0; i < total; i += 1000) {
    await vectors.similarities('message 0', Array.from({ length: Math.min(1000, total - i) }, (_, k) => `filler ${i + k}`))
  }
  t.equal(vectors.size, SENTENCE_CACHE_ENTRIES)
  const before = embedder.calls
  await vectors.similarities('message 0', ['sentence 3'])
  t.equal(embedder.calls, before + 1, 'an early sentence was evicted and is embedded again')
})

t.test('SentenceVectors: a vector evicted by other turns while this one embeds is still used', async (t) => {
  let release = () => {}
  const gate = new Promise<void>((resolve) => { release = resolve })
  const slow: Embedder = {
    dimensions: 2,
    async embed (texts) {
      if (texts.includes('slow 1')) await gate
      return texts.map(() => new Float32Array([1, 0]))
    }
  }
  const vectors = new SentenceVectors(slow)
  await vectors.similarities('question', [])
  const pending = vectors.similarities('question', ['slow 1'])
  // Another turn fills the cache past its cap meanwhile, evicting "question".
  await vectors.similarities('other', Array.from({ length: SENTENCE_CACHE_ENTRIES + 10 }, (_, i) => `other ${i}`))
  release()
  t.same(await pending, [1])
})
