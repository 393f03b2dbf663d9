import { gzipSync } from 'node:zlib'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { FileRejected } from '../src/knowledge/parse/index.js'
import { chunkPage } from '../src/knowledge/chunk.js'
import { parseFileOnThread } from '../src/knowledge/parse/file-thread.js'
import { searchHarness, send, taskIn } from './helpers.js'
import { pdfOf } from './pdf.js'

const FAST = { tasks: { heartbeatMs: 200, pollMs: 500, shutdownGraceMs: 300 } }
const BOUNDARY = 'chatsearch-test-boundary'

interface Part { name: string, value: string | Uint8Array, filename?: string, type?: string }

/** A multipart/form-data body, written out by hand so that tests can also send broken ones. */
function multipart (parts: Part[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`
    const type = part.type ?? (part.filename === undefined ? undefined : 'application/octet-stream')
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`))
    chunks.push(Buffer.from(part.value))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(chunks)
}

const file = (filename: string, value: string | Uint8Array, type?: string): Part => ({ name: 'file', filename, value, ...(type === undefined ? {} : { type }) })

function upload (app: FastifyInstance, key: string, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return app.inject({ method: 'POST', url: '/knowledge/files', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload: body })
}

const SHIPPING = `# Shipping

## Delivery times

Standard delivery takes three to five working days. Express delivery arrives the next working day.

## Costs

Orders over fifty euros ship free of charge.
`

t.test('uploaded Markdown and PDF files are indexed by a files task and found with their section and link', async (t) => {
  const h = await searchHarness(t, false, FAST)
  const shop = await h.tenant()
  const other = await h.tenant()
  const manual = await pdfOf([
    [['Trail Lamp 300 manual'], ['Charge the lamp fully before its first use.']],
    [['Warranty'], ['The lamp is covered by a two year warranty against defects.']]
  ], 'Trail Lamp manual')

  const body = multipart([file('shipping.md', SHIPPING, 'text/markdown'), file('lamp manual.pdf', manual, 'application/pdf'), { name: 'url', value: 'https://shop.example/help' }])
  const res = await upload(h.app, shop.key, body)
  t.equal(res.statusCode, 202, res.body)
  const task = await taskIn(h.app, shop.key, res.json().task_id, ['succeeded', 'failed'], 60_000)
  t.equal(task.status, 'succeeded', JSON.stringify(task.error))
  t.equal(task.type, 'files')
  t.same(task.progress, { done: 2, total: 2 })
  t.match(task.details, { files: 2, indexed: 2, unchanged: 0, skipped: [] })
  const documents = (task.details as { documents: Array<{ file: string, id: string, chunks: number }> }).documents
  t.same(documents.map((d) => d.file), ['shipping.md', 'lamp manual.pdf'])
  t.match(documents[0]!.id, /^file-shipping-md-[0-9a-f]{8}$/)
  t.match(documents[1]!.id, /^file-lamp-manual-pdf-[0-9a-f]{8}$/)

  const listed = await send(h.app, shop.key, 'GET', '/knowledge/documents?kind=file')
  t.equal(listed.json().total, 2)
  const read = await send(h.app, shop.key, 'GET', `/knowledge/documents/${documents[1]!.id}`)
  t.match(read.json(), { kind: 'file', title: 'Trail Lamp manual', url: 'https://shop.example/help' })
  t.match(read.json().content, /two year warranty/, 'the file\'s text can be read back')

  const search = async (query: string, key = shop.key) => {
    const found = await send(h.app, key, 'POST', '/knowledge/search', { query })
    t.equal(found.statusCode, 200, found.body)
    return found.json().hits as Array<{ document_id: string, kind: string, title: string, section: string, url: string, text: string }>
  }
  t.match((await search('how long does delivery take'))[0], { document_id: documents[0]!.id, kind: 'file', title: 'Shipping', section: 'Shipping › Delivery times', url: 'https://shop.example/help#delivery-times' })
  t.match((await search('lamp warranty defects'))[0], { document_id: documents[1]!.id, url: 'https://shop.example/help#page=2' }, 'a PDF chunk links to its page')
  t.same(await search('delivery', other.key), [], 'another project sees nothing')
  t.equal((await send(h.app, other.key, 'GET', `/tasks/${task.id}`)).statusCode, 404, 'nor the task')
  const theirs = await upload(h.app, other.key, multipart([file('shipping.md', '# Livraison\n\nNous livrons par coursier zeppelin.')]))
  t.equal((await taskIn(h.app, other.key, theirs.json().task_id, ['succeeded', 'failed'], 60_000)).status, 'succeeded')
  t.equal((await send(h.app, other.key, 'GET', `/knowledge/documents/${documents[0]!.id}`)).json().title, 'Livraison', 'the same file name in another project is its own document')
  t.equal((await send(h.app, shop.key, 'GET', `/knowledge/documents/${documents[0]!.id}`)).json().title, 'Shipping', 'the first project\'s is untouched')

  const again = await upload(h.app, shop.key, body)
  const second = await taskIn(h.app, shop.key, again.json().task_id, ['succeeded', 'failed'], 60_000)
  t.match(second.details, { files: 2, indexed: 0, unchanged: 2 }, 'the same files again replace nothing')
  t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 2, 'a re-upload keeps one document per file name')
})

t.test('a file that cannot be read while parsed is skipped with its reason; a task with no readable file fails', async (t) => {
  const h = await searchHarness(t, false, FAST)
  const shop = await h.tenant()
  const scanned = await pdfOf([[]])

  const mixed = await upload(h.app, shop.key, multipart([file('scan.pdf', scanned), file('faq.txt', 'Gift cards never expire.\n\nThey can be used online and in shops.')]))
  t.equal(mixed.statusCode, 202, mixed.body)
  const partly = await taskIn(h.app, shop.key, mixed.json().task_id, ['succeeded', 'failed'], 60_000)
  t.equal(partly.status, 'succeeded')
  t.match(partly.details, { files: 2, indexed: 1, skipped: [{ file: 'scan.pdf', reason: /no text.*text recognition/ }] })

  const only = await upload(h.app, shop.key, multipart([file('scan.pdf', scanned)]))
  const failed = await taskIn(h.app, shop.key, only.json().task_id, ['succeeded', 'failed'], 60_000)
  t.equal(failed.status, 'failed')
  t.match(failed.error, { statusCode: 400, code: 'invalid_file', message: /no text/ })
  t.equal((await send(h.app, shop.key, 'GET', '/knowledge/documents')).json().total, 1, 'only the text file is indexed')
})

t.test('a bad upload is refused whole with the documented error, and nothing is queued', async (t) => {
  const h = await searchHarness(t, false, FAST)
  const shop = await h.tenant()
  const good = file('ok.md', '# Fine\n\nA page of text.')
  const refused = async (name: string, body: Buffer, status: number, code: string, message: RegExp, contentType?: string) => {
    const res = await upload(h.app, shop.key, body, contentType)
    t.equal(res.statusCode, status, `${name}: ${res.body}`)
    t.match(res.json(), { statusCode: status, code, message }, name)
  }
  await refused('a Word file', multipart([good, file('terms.docx', 'PK\u0003\u0004 not really')]), 415, 'unsupported_file_type', /terms\.docx.*zip-compressed|only \.md/)
  await refused('a gzip bomb named .md', multipart([file('bomb.md', gzipSync(Buffer.alloc(10_000_000)))]), 415, 'unsupported_file_type', /gzip-compressed/)
  await refused('a PDF that is not one', multipart([file('manual.pdf', 'just text')]), 400, 'invalid_file', /not a PDF/)
  await refused('a PDF named .md', multipart([file('manual.md', await pdfOf([[['text']]]))]), 400, 'invalid_file', /PDF named as markdown/)
  await refused('broken UTF-8', multipart([file('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]))]), 400, 'invalid_file', /neither valid UTF-8/)
  await refused('a file over the size limit', multipart([file('huge.txt', Buffer.alloc(20 * 1024 * 1024 + 1, 0x61))]), 413, 'payload_too_large', /20 MiB accepted per file/)
  await refused('too many files', multipart(Array.from({ length: 21 }, (_, i) => file(`page-${i}.md`, `# Page ${i}\n\ntext`))), 413, 'payload_too_large', /at most 20 files/)
  await refused('two files of one name', multipart([good, good]), 400, 'invalid_request', /two files are named ok\.md/)
  await refused('a file without a name', multipart([file('', 'text')]), 400, 'invalid_request', /needs a file name/)
  await refused('a part of another name', multipart([{ name: 'document', filename: 'a.md', value: 'x' }]), 400, 'invalid_request', /name each file part "file"/)
  await refused('an unknown field', multipart([good, { name: 'title', value: 'x' }]), 400, 'invalid_request', /unknown field "title"/)
  await refused('a url that is not http', multipart([good, { name: 'url', value: 'file:///etc/passwd' }]), 400, 'invalid_request', /url must be an http or https URL/)
  await refused('a url that does not parse', multipart([good, { name: 'url', value: 'http://shop.example:99999/help' }]), 400, 'invalid_request', /url must be an http or https URL/)
  // Multipart fields skip the JSON checks: a NUL in either was stored, and every reply citing the file then failed.
  await refused('a NUL in the url', multipart([good, { name: 'url', value: 'https://shop.example/a\u0000b' }]), 400, 'invalid_request', /url must be an http or https URL/)
  await refused('a NUL in a file name', multipart([file('a\u0000b.md', '# A\n\ntext')]), 400, 'invalid_request', /file name: .*NUL/)
  // Names and fields whose bytes are not UTF-8: the parser decodes them with U+FFFD, which was stored as the title, id and URL.
  const latin1 = (disposition: Buffer, value: string) => Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: `), disposition,
    Buffer.from(`\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`)])
  await refused('a file name in Latin-1', latin1(Buffer.concat([Buffer.from('form-data; name="file"; filename="r'), Buffer.from([0xe9]), Buffer.from('sum\u00e9.md"')]), '# A\n\ntext'),
    400, 'invalid_request', /^file name: must be UTF-8/)
  await refused('a file name encoding a lone surrogate', latin1(Buffer.from('form-data; name="file"; filename*=UTF-8\'\'%ED%A0%80.md'), '# A\n\ntext'), 400, 'invalid_request', /^file name: must be UTF-8/)
  const badUrl = Buffer.concat([multipart([good]).subarray(0, -(BOUNDARY.length + 6)), Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://shop.example/h`), Buffer.from([0xff, 0xfe]), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)])
  await refused('a url whose bytes are not UTF-8', badUrl, 400, 'invalid_request', /^url: must be UTF-8/)
  await refused('no file at all', multipart([{ name: 'url', value: 'https://shop.example/' }]), 400, 'missing_parameters', /no file/)
  await refused('a body cut short', multipart([good]).subarray(0, 60), 400, 'invalid_request', /multipart body cannot be read/)
  await refused('JSON instead of files', Buffer.from('{"file":"x"}'), 415, 'unsupported_media_type', /multipart\/form-data/, 'application/json')
  const tasks = await send(h.app, shop.key, 'GET', '/tasks')
  t.equal(tasks.json().total, 0, 'no refused upload queued a task')
})

t.test('files are uploaded over real HTTP with FormData, as a browser or curl sends them', async (t) => {
  const h = await searchHarness(t, false, FAST)
  const shop = await h.tenant()
  const address = await h.app.listen({ host: '127.0.0.1', port: 0 })
  const form = new FormData()
  form.append('file', new Blob([SHIPPING], { type: 'text/markdown' }), 'shipping.md')
  form.append('file', new Blob(['<html><body><main><h1>Returns</h1><p>Returns are free within thirty days.</p></main></body></html>'], { type: 'text/html' }), 'returns.html')
  const res = await fetch(`${address}/knowledge/files`, { method: 'POST', headers: { authorization: `Bearer ${shop.key}` }, body: form })
  t.equal(res.status, 202, await res.clone().text())
  const task = await taskIn(h.app, shop.key, ((await res.json()) as { task_id: string }).task_id, ['succeeded', 'failed'], 60_000)
  t.match(task, { status: 'succeeded', details: { files: 2, indexed: 2 } })
})

t.test('a file is parsed on a thread bounded in time and memory', async (t) => {
  const text = '# Title\n\n' + Array.from({ length: 40_000 }, (_, i) => `## Section ${i}\n\nParagraph ${i} with [a link](https://example.com/${i}) and *emphasis*.\n`).join('\n')
  const big = { name: 'big.md', bytes: Buffer.from(text) }
  await t.rejects(parseFileOnThread(big, { timeoutMs: 60_000, maxHeapMb: 8 }), new FileRejected('invalid_file', 'big.md needs more than 8 MiB of memory to read'))
  await t.rejects(parseFileOnThread(big, { timeoutMs: 20, maxHeapMb: 512 }), new FileRejected('invalid_file', 'big.md took longer than 0.02 s to read'))
  const { page, chunks } = await parseFileOnThread({ name: 'small.md', bytes: Buffer.from(SHIPPING) })
  t.equal(page.title, 'Shipping')
  t.same(page.blocks.map((b) => [...b.path, b.anchor]), [['Shipping', 'Delivery times', 'delivery-times'], ['Shipping', 'Costs', 'costs']])
  t.same(chunks, chunkPage(page), 'chunked on the thread as on the event loop')
})
