import t from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { SENTENCE_CACHE_ENTRIES, SentenceVectors } from '../src/assistant/sentence-vectors.js'

/** Unit vectors along one of two axes, by the text's last digit: enough to tell similarities apart. */
const embedder: Embedder & { calls: number, last: string[] } = {
  dimensions: 2,
  calls: 0,
  last: [],
  async embed (texts) {
    this.calls++
    this.last = texts
    return texts.map((text) => Number(text.at(-1)) % 2 === 0 ? new Float32Array([1, 0]) : new Float32Array([0, 1]))
  }
}

t.test('SentenceVectors: similarities from cached vectors, the cache bounded by SENTENCE_CACHE_ENTRIES', async (t) => {
  const vectors = new SentenceVectors(embedder)
  t.same(await vectors.similarities('message 0', ['sentence 2', 'sentence 3']), [1, 0])
  t.equal(vectors.size, 2, 'both sentences are kept, not the message')
  t.same(await vectors.similarities('message 0', ['sentence 2']), [1])
  t.same(embedder.last, ['message 0'], 'a known sentence is not embedded again; the message is')
  const calls = embedder.calls
  await vectors.similarities('sentence 2', ['sentence 3'])
  t.equal(embedder.calls, calls, 'a message that is a known sentence needs no embedding')

  // A thousand turns of new messages over the same sentences: the cache holds the sentences alone.
  for (let i = 0; i < 1000; i++) await vectors.similarities(`question ${i}`, ['sentence 2', 'sentence 3'])
  t.equal(vectors.size, 2, 'messages do not fill the cache')

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
