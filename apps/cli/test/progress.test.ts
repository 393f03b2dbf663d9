import t, { type Test } from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createProject } from '@chatsearch/auth'
import type { Embedder } from '@chatsearch/embeddings'
import { readSearchEnv, searchConfig } from '@chatsearch/search'
import { testDatabase } from '@chatsearch/testkit'
import { importCatalog } from '../src/catalog.js'
import { withDatabase } from '../src/database.js'
import { embedInSteps } from '../src/embed-steps.js'

t.test('embedInSteps embeds a step at a time, telling each step, vectors in order', async (t) => {
  const calls: number[] = []
  const inner: Embedder = {
    dimensions: 1,
    embed: async (texts) => { calls.push(texts.length); return texts.map((x) => Float32Array.of(Number(x))) }
  }
  const told: number[] = []
  const stepped = embedInSteps(inner, 8, (count) => { told.push(count) })
  const vectors = await stepped.embed(Array.from({ length: 20 }, (_, i) => String(i)))
  t.same(calls, [8, 8, 4])
  t.same(told, [8, 8, 4])
  t.same(vectors.map((v) => v[0]), Array.from({ length: 20 }, (_, i) => i))
  t.equal(stepped.dimensions, 1)
  t.same(await stepped.embed([]), [])
  t.same(told, [8, 8, 4], 'nothing to embed, nothing told')
})

/** An OpenAI-compatible embeddings API on loopback, counting its requests. */
async function fakeEmbeddings (t: Test) {
  const requests: number[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => { raw += c })
    req.on('end', () => {
      const { input } = JSON.parse(raw) as { input: string[] }
      requests.push(input.length)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ data: input.map((x, index) => ({ index, embedding: [x.length, 1, 0.5] })) }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests }
}

t.test('an import reports progress within a batch, as items are embedded', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-progress-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const api = await fakeEmbeddings(t)
  const env = { DATABASE_URL: await testDatabase(t), DATA_DIR: dir, EMBEDDINGS_URL: api.url, EMBEDDINGS_MODEL: 'fake' }
  const project = await withDatabase(env, (db) => createProject(db, 'Progress'))
  const file = join(dir, 'items.jsonl')
  // 150 items: one batch of the import (500), three steps of the remote embedder.
  await writeFile(file, Array.from({ length: 150 }, (_, i) => JSON.stringify({ id: `p${i}`, title: `Item number ${i}` })).join('\n'))

  const seen: Array<[number, number]> = []
  const result = await importCatalog(env, searchConfig(readSearchEnv(env), ''), project.id, file, (done, total) => { seen.push([done, total]) })
  t.match(result, { received: 150, indexed: 150, total: 150 })
  t.same(seen, [[0, 150], [64, 150], [128, 150], [150, 150], [150, 150]], 'steps of 64 while the batch is embedded, then the written batch')
  t.same(api.requests, [1, 64, 64, 22], 'the probe, then the requests the embedder makes anyway: progress adds none')

  seen.length = 0
  await importCatalog(env, searchConfig(readSearchEnv(env), ''), project.id, file, (done, total) => { seen.push([done, total]) })
  t.same(seen, [[0, 150], [150, 150]], 'an unchanged import embeds nothing and moves once the batch is checked')
})
