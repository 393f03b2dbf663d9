import t from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { MESSAGE_CACHE_ENTRIES, SENTENCE_CACHE_ENTRIES, SentenceVectors } from '../src/assistant/sentence-vectors.js'

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
  t.equal(vectors.size, 2, 'both sentences are kept')
  t.equal(vectors.messages, 1, 'and the message, apart')
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

t.test('SentenceVectors: messages asked once cycle through their own cache, bounded by MESSAGE_CACHE_ENTRIES', async (t) => {
  const vectors = new SentenceVectors(embedder)
  await vectors.similarities('how do returns work 1', ['sentence 2', 'sentence 3'])
  const total = MESSAGE_CACHE_ENTRIES * 5
  for (let i = 0; i < total; i++) await vectors.similarities(`asked once ${i}`, ['sentence 2'])
  t.equal(vectors.messages, MESSAGE_CACHE_ENTRIES, 'the messages stay at their cap')
  t.equal(vectors.size, 2, 'and leave the sentences alone')
  const calls = embedder.calls
  t.same(await vectors.similarities('asked once 4999', ['sentence 2', 'sentence 3']), [0, 1])
  t.equal(embedder.calls, calls, 'a recent message is not embedded again')
  await vectors.similarities('how do returns work 1', ['sentence 3'])
  t.equal(embedder.calls, calls + 1, 'the first message was evicted and is embedded again')
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
  // Other turns fill both caches past their caps meanwhile, evicting "question".
  await vectors.similarities('other', Array.from({ length: SENTENCE_CACHE_ENTRIES + 10 }, (_, i) => `other ${i}`))
  for (let i = 0; i < MESSAGE_CACHE_ENTRIES + 10; i++) await vectors.similarities(`other message ${i}`, [])
  release()
  t.same(await pending, [1])
})
