import t from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { QueryVectors } from '../src/query-vectors.js'

/** An embedder that counts the texts it is given (a vector from the text's length, to tell them apart). */
function countingEmbedder () {
  const embedded: string[] = []
  const embedder: Embedder = {
    dimensions: 2,
    embed: async (texts) => {
      embedded.push(...texts)
      return texts.map((text) => Float32Array.from([text.length, 1]))
    }
  }
  return { embedder, embedded }
}

t.test('a query text searched again is not embedded again, and each caller gets a vector of its own', async (t) => {
  const { embedder, embedded } = countingEmbedder()
  const kept = new QueryVectors(embedder)
  const vectorOf = async (text: string) => await kept.vector(text)
  const first = await vectorOf('waterproof boots')
  first[0] = -1 // a caller changing its copy
  const again = await vectorOf('waterproof boots')
  t.same(embedded, ['waterproof boots'], 'embedded once')
  t.same([...again], ['waterproof boots'.length, 1], 'the kept vector, unchanged by the first caller')
  t.not(again, await vectorOf('waterproof boots'), 'a copy per call')
  await vectorOf('rain jacket')
  t.same(embedded, ['waterproof boots', 'rain jacket'], 'another text is embedded')
  t.equal(kept.size, 2, 'two texts kept')
})

t.test('past the texts kept, the least recently searched is embedded again', async (t) => {
  const { embedder, embedded } = countingEmbedder()
  const kept = new QueryVectors(embedder, 2)
  const vectorOf = async (text: string) => await kept.vector(text)
  await vectorOf('a')
  await vectorOf('b')
  await vectorOf('a')
  await vectorOf('c')
  await vectorOf('a')
  await vectorOf('b')
  t.same(embedded, ['a', 'b', 'c', 'b'], '"b", searched least recently when "c" came, went; "a" stayed')
})

t.test('a failed embedding is not kept: the next search tries again', async (t) => {
  let calls = 0
  const kept = new QueryVectors({
    dimensions: 2,
    embed: async (texts) => {
      calls++
      if (calls === 1) throw new Error('model busy')
      return texts.map(() => Float32Array.from([1, 0]))
    }
  })
  const vectorOf = async (text: string) => await kept.vector(text)
  await t.rejects(vectorOf('sofa'), /model busy/)
  t.equal(kept.size, 0, 'nothing kept for the failure')
  t.same([...await vectorOf('sofa')], [1, 0], 'embedded on the second try')
})
