import t from 'tap'
import { keptThreads } from '../src/bounded-thread.js'
import { chunkPage } from '../src/knowledge/chunk.js'
import { parseFileOnThread } from '../src/knowledge/parse/file-thread.js'
import { parseFile } from '../src/knowledge/parse/index.js'

const file = (name: string, text: string) => ({ name, bytes: Buffer.from(text) })

t.test('a parsing thread that answered takes the next file; one that refused a file or ran out of time is stopped', async (t) => {
  const shipping = file('shipping.md', '# Shipping\n\n## Delivery times\n\nParcels arrive in two to four working days.')
  const first = await parseFileOnThread(shipping)
  t.equal(keptThreads(), 1, 'the thread that parsed it is kept')

  const both = await Promise.all([parseFileOnThread(file('a.md', '# A\n\nOne.')), parseFileOnThread(file('b.md', '# B\n\nTwo.'))])
  t.same(both.map((parsed) => parsed.page.title), ['A', 'B'], 'each file gets its own answer')
  t.equal(keptThreads(), 2, 'the kept one took a file, a new one the other: both kept')

  await t.rejects(parseFileOnThread(file('fake.pdf', 'just text')), { code: 'invalid_file' })
  t.equal(keptThreads(), 1, 'the thread that refused a file is stopped')
  const big = file('big.md', '# Big\n\n' + Array.from({ length: 40_000 }, (_, i) => `## Section ${i}\n\nParagraph ${i}.\n`).join('\n'))
  await t.rejects(parseFileOnThread(big, { timeoutMs: 20, maxHeapMb: 512 }), { code: 'invalid_file', message: /took longer than 0\.02 s/ })
  t.equal(keptThreads(), 0, 'so is one past its time, even when it was a kept one')

  const again = await parseFileOnThread(shipping)
  t.same(again, first, 'a new thread parses as the first did')
  t.same(again.chunks, chunkPage(await parseFile(shipping)), 'and as the event loop does')
  t.same(await parseFileOnThread(shipping), first, 'and so does the kept one')
  t.equal(keptThreads(), 1)
  const other = await parseFileOnThread(shipping, { timeoutMs: 60_000, maxHeapMb: 300 })
  t.same(other, first)
  t.equal(keptThreads(), 2, 'a thread of another heap is kept apart: it never takes a job of another bound')
})
