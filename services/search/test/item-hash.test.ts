import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { Embedder } from '@chatsearch/embeddings'
import { documentHash } from '../src/engine/hash.js'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { ingestDocuments } from '../src/ingest/documents.js'

t.test('an item\'s content hash names the rule for the text embedded: a new rule embeds unchanged items again, once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-item-hash-'))
  t.teardown(async () => await rm(dir, { recursive: true, force: true }))
  const engine = new EmbeddedEngine(dir, { id: 'test:4', dimensions: 4 })
  t.teardown(async () => await engine.close())
  const index = await engine.index('p')
  const asked: string[][] = []
  const embedder: Embedder = { dimensions: 4, embed: async (texts) => { asked.push(texts); return texts.map(() => Float32Array.from([1, 0, 0, 0])) } }
  const desk = { id: 'desk', title: 'Walnut desk', description: 'A desk of solid walnut.' }

  // As a version whose rule embedded other text stored it.
  await index.upsert([{ document: desk, hash: documentHash(desk, 'an older rule'), vector: Float32Array.from([0, 1, 0, 0]) }])
  t.same(await ingestDocuments(index, [desk], embedder), { received: 1, indexed: 1, unchanged: 0, total: 1 }, 'the same item, stored under another rule, is written again')
  t.same(asked, [['Walnut desk. A desk of solid walnut.']], 'and embedded with this rule')
  t.same(await ingestDocuments(index, [desk], embedder), { received: 1, indexed: 0, unchanged: 1, total: 1 }, 'then skipped')
  t.equal(asked.length, 1, 'not embedded again')

  await index.upsert([{ document: desk }])
  t.same(await ingestDocuments(index, [desk], embedder), { received: 1, indexed: 1, unchanged: 0, total: 1 }, 'an item written with no hash is written again at its next import')
  t.equal(asked.length, 2)
})
