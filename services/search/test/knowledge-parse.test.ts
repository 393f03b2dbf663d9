import { runInNewContext } from 'node:vm'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { extractLinks } from '../src/knowledge/crawl/links.js'
import { FileRejected, loadHtml, parseFile, parseHtml, parseMarkdown, parseText, readContent } from '../src/knowledge/parse/index.js'
import { pdfOf } from './pdf.js'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** The FileRejected `run` throws (or rejects with), or a failure when it succeeds. */
async function rejection (run: () => unknown): Promise<FileRejected> {
  try {
    await run()
  } catch (error) {
    if (error instanceof FileRejected) return error
    throw error
  }
  throw new Error('expected a FileRejected, got a result')
}

/** A real PDF, built here: one page per entry, each a list of paragraphs of lines. */
const MARKDOWN = `# Help centre

Welcome to the *help* centre. See [our shop](https://shop.example).

## Returns & refunds

You may return any item within **30 days**.

- Pack the item
- Print the label
  - on A4 paper
- [x] Drop it off

| Carrier | Days |
|---|---|
| Post | 3 |

\`\`\`sh
curl https://shop.example/returns
\`\`\`

### Damaged items

Send us a photo.

## Returns & refunds

Refunds take five days.
`

t.test('markdown: headings make the path, GitHub slugs the anchors, every kind of block is kept', async (t) => {
  const page = parseMarkdown(MARKDOWN, 'help.md', 'https://shop.example/help')
  t.equal(page.title, 'Help centre')
  t.equal(page.url, 'https://shop.example/help')
  t.same(page.blocks, [
    { path: ['Help centre'], anchor: 'help-centre', text: 'Welcome to the help centre. See our shop.' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'You may return any item within 30 days.' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'Pack the item' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'Print the label' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'on A4 paper' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: '[x] Drop it off' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'Carrier | Days' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'Post | 3' },
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds', text: 'curl https://shop.example/returns' },
    { path: ['Help centre', 'Returns & refunds', 'Damaged items'], anchor: 'damaged-items', text: 'Send us a photo.' },
    // The second heading of the same name gets GitHub's `-1`, and the h3 before it is closed.
    { path: ['Help centre', 'Returns & refunds'], anchor: 'returns--refunds-1', text: 'Refunds take five days.' }
  ])
})

t.test('markdown without an h1 takes the given title; text before any heading has no path or anchor', async (t) => {
  const page = parseMarkdown('Just a note.\n\n## Later\n\nMore.', 'notes')
  t.equal(page.title, 'notes')
  t.same(page.blocks[0], { path: [], text: 'Just a note.' })
  t.equal(page.url, undefined)
})

t.test('markdown nested 100,000 deep is refused at once; long delimiter runs are read quickly', async (t) => {
  for (const source of ['>'.repeat(100_000) + ' x', '- '.repeat(100_000) + 'x', Array.from({ length: 200 }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n')]) {
    const started = Date.now()
    const error = await rejection(() => parseMarkdown(source, 'deep'))
    t.equal(error.code, 'invalid_file')
    t.match(error.reason, /nests quotes or lists more than 32/)
    t.ok(Date.now() - started < 1000, `refused in ${Date.now() - started} ms`)
  }
  const started = Date.now()
  const page = parseMarkdown('*'.repeat(100_000) + 'word' + '*'.repeat(100_000), 'stars')
  t.ok(page.blocks.some((block) => block.text.includes('word')))
  t.ok(Date.now() - started < 2000, `read in ${Date.now() - started} ms`)
})

t.test('markdown: a page of 2,000 sections keeps every heading, GitHub\'s numbering of repeated slugs, and its references', async (t) => {
  const source = Array.from({ length: 2000 }, (_, i) =>
    `## Section ${i}\n\nStep ${i} of the guide, see [the returns page][returns].\n\n### Example\n\n- Pack item ${i}\n  - then label it\n- Drop it off\n`
  ).join('\n') + '\n[returns]: https://shop.example/returns\n'
  const page = parseMarkdown(source, 'guide.md')
  const sections = page.blocks.filter((block) => block.path.length === 1)
  t.same(sections.map((block) => block.path[0]), Array.from({ length: 2000 }, (_, i) => `Section ${i}`), 'one block under each h2, in order')
  t.same(sections.map((block) => block.anchor), Array.from({ length: 2000 }, (_, i) => `section-${i}`))
  t.ok(sections.every((block, i) => block.text === `Step ${i} of the guide, see the returns page.`), 'the reference defined at the end is a link in every section')
  const examples = page.blocks.filter((block) => block.path.length === 2)
  t.equal(examples.length, 6000, 'three list items under each "Example"')
  t.same([...new Set(examples.map((block) => block.anchor))], ['example', ...Array.from({ length: 1999 }, (_, i) => `example-${i + 1}`)], 'the repeated h3 numbered across the whole page')
  t.equal(new Set(page.blocks.map((block) => block.anchor)).size, 4000, 'every section its own anchor')
  t.same(examples.slice(-3).map((block) => [block.path.join(' / '), block.text]), [
    ['Section 1999 / Example', 'Pack item 1999'], ['Section 1999 / Example', 'then label it'], ['Section 1999 / Example', 'Drop it off']
  ])
})

const HTML = `<!doctype html><html><head>
<title>Shipping | Example Shop</title>
<link rel="canonical" href="/help/shipping">
<meta name="robots" content="noindex">
<style>body { color: red }</style>
</head><body>
<nav><a href="/">Home</a> <a href="/help/returns#top">Returns</a> <a href="https://elsewhere.example/x">Partner</a> <a href="mailto:a@b.c">Mail</a> <a rel="nofollow" href="/login">Log in</a></nav>
<main><article>
<h1>Shipping</h1>
<p>We ship to every country in the European Union. Orders placed before noon leave the warehouse the same day, and tracking numbers are sent by email as soon as the parcel is handed to the carrier.</p>
<section id="costs"><h2>Costs</h2>
<p>Shipping is free above 50 euros. Below that, a flat fee of 4.90 euros applies to every order, whatever its weight or size, and whatever the destination within the Union.</p>
<table><tr><th>Zone</th><th>Days</th></tr><tr><td>Germany</td><td>2</td></tr></table>
</section>
<h2><a name="express"></a>Express</h2>
<ul><li>Next day in Germany</li><li>Two days elsewhere</li></ul>
<div id="note"><p>Express orders must be placed before 11:00 on a working day to leave the same day.</p><p>Public holidays are not working days.</p></div>
</article></main>
<footer>© Example Shop · Imprint · Privacy</footer>
<script>window.secret = 'tracking code'</script>
</body></html>`

t.test('html: main content only, headings make the path, ids of headings or their sections are anchors; a crawl reads links first from the same parse', async (t) => {
  const document = loadHtml(HTML)
  const links = extractLinks(document, new URL('https://shop.example/help/shipping?ref=nav'), undefined, 'ChatSearchBot')
  const page = readContent(document, links.title, 'https://shop.example/help/shipping?ref=nav')
  const text = page.blocks.map((block) => block.text).join('\n')
  t.notMatch(text, /Home|Imprint|tracking code|color: red|Log in/, 'no navigation, footer, script or style')
  t.match(text, /free above 50 euros/)
  const costs = page.blocks.find((block) => block.text.startsWith('Shipping is free'))
  t.same(costs?.path, ['Costs'])
  t.equal(costs?.anchor, 'costs', 'the enclosing section\'s id')
  t.ok(page.blocks.some((block) => block.text === 'Zone | Days' && block.anchor === 'costs'), 'table rows are blocks')
  const express = page.blocks.find((block) => block.text === 'Next day in Germany')
  t.same(express?.path, ['Express'])
  t.equal(express?.anchor, 'express', 'a named anchor inside the heading')
  t.equal(page.blocks.find((block) => block.text.startsWith('Express orders'))?.anchor, 'note', 'an element id nearer than the heading')
  t.equal(page.title, 'Shipping | Example Shop')
  t.equal(page.url, 'https://shop.example/help/shipping?ref=nav')

  t.equal(links.canonical?.href, 'https://shop.example/help/shipping')
  t.equal(links.title, 'Shipping | Example Shop')
  t.same(links.links.map((url) => url.href), ['https://shop.example/', 'https://shop.example/help/returns', 'https://elsewhere.example/x'], 'absolute, no fragment, no mailto, no rel=nofollow')
  t.equal(links.noindex, true)
  t.equal(links.nofollow, false)
  t.same(parseHtml(HTML, 'shipping.html', 'https://shop.example/help/shipping?ref=nav'), page, 'the content a page parsed on its own has')
})

t.test('html: <base href> resolves links; robots "none" is noindex and nofollow; a fragment has a page made for it', async (t) => {
  const links = extractLinks(loadHtml('<html><head><base href="https://cdn.example/docs/"><meta name="ROBOTS" content="NONE"></head><body><a href="a.html#x">a</a></body></html>'), new URL('https://shop.example/'), undefined, 'ChatSearchBot')
  t.same(links.links.map((url) => url.href), ['https://cdn.example/docs/a.html'])
  t.equal(links.noindex, true)
  t.equal(links.nofollow, true)
  const page = parseHtml('<p>Short note.</p><div id="a">Hello <b>there</b><p>Inner.</p></div>', 'note.html')
  t.same(page.blocks, [{ path: [], text: 'Short note.' }, { path: [], anchor: 'a', text: 'Hello there' }, { path: [], anchor: 'a', text: 'Inner.' }])
  t.equal(page.title, 'note.html')
})

t.test('html nested 100,000 divs deep is refused quickly, without overflowing the stack', async (t) => {
  const deep = '<html><body>' + '<div>'.repeat(100_000) + 'deep' + '</div>'.repeat(100_000) + '</body></html>'
  const started = Date.now()
  const error = await rejection(() => parseHtml(deep, 'deep.html'))
  t.equal(error.code, 'invalid_file')
  t.match(error.reason, /nests elements more than 128 deep/)
  t.ok(Date.now() - started < 1000, `refused in ${Date.now() - started} ms`)
  const unclosed = await rejection(() => parseHtml('<b>'.repeat(100_000), 'bold.html'))
  t.equal(unclosed.code, 'invalid_file', 'unclosed inline elements nest too')
  const wide = parseHtml('<p>x</p>'.repeat(10_000), 'wide.html')
  t.equal(wide.blocks.length, 10_000, 'many siblings are fine')
})

t.test('pdf: paragraphs from the text of each page, anchored page=N, title from the metadata', async (t) => {
  const bytes = await pdfOf([
    [['Returns are free within 30 days.', 'Keep the receipt.'], ['Refunds go to the card used.']],
    [['Shipping takes three days.']]
  ], 'Shop policies')
  const page = await parseFile({ name: 'policies.pdf', bytes, url: 'https://shop.example/policies.pdf' })
  t.equal(page.title, 'Shop policies')
  t.same(page.blocks, [
    { path: [], anchor: 'page=1', text: 'Returns are free within 30 days. Keep the receipt.' },
    { path: [], anchor: 'page=1', text: 'Refunds go to the card used.' },
    { path: [], anchor: 'page=2', text: 'Shipping takes three days.' }
  ])
  t.equal(page.url, 'https://shop.example/policies.pdf')
  const untitled = await parseFile({ name: 'dir/terms.pdf', bytes: await pdfOf([[['Terms apply.']]]) })
  t.equal(untitled.title, 'terms', 'the file name when the PDF has no title')
})

t.test('pdf: reading one leaves the process\'s built-ins as they were (pdf.js would replace JSON.stringify and Array push with slower copies)', async (t) => {
  await parseFile({ name: 'a.pdf', bytes: await pdfOf([[['Hello.']]]) })
  // Another realm's toString: pdf.js's polyfills also replace this realm's, which calls them native.
  const sourceOf = runInNewContext('Function.prototype.toString') as (this: unknown) => string
  for (const [name, builtIn] of Object.entries({ 'Array.prototype.push': Array.prototype.push, 'JSON.parse': JSON.parse, 'JSON.stringify': JSON.stringify, 'Function.prototype.toString': Function.prototype.toString })) {
    t.match(sourceOf.call(builtIn), /\[native code\]/, name)
  }
})

t.test('pdf: no text (a scanned document), too many pages, or broken bytes are refused with the reason', async (t) => {
  const blank = await rejection(async () => await parseFile({ name: 'scan.pdf', bytes: await pdfOf([[], []]) }))
  t.equal(blank.code, 'invalid_file')
  t.match(blank.reason, /no text/)
  const long = await rejection(async () => await parseFile({ name: 'long.pdf', bytes: await pdfOf([[['a']], [['b']], [['c']]]) }, { maxPages: 2 }))
  t.match(long.reason, /3 pages, more than the 2/)
  const broken = await rejection(async () => await parseFile({ name: 'broken.pdf', bytes: utf8('%PDF-1.7\nthis is not a PDF body') }))
  t.equal(broken.code, 'invalid_file')
  t.match(broken.reason, /cannot be read/)
})

t.test('text: paragraphs on blank lines; UTF-8 with a BOM and UTF-16 with a BOM are read', async (t) => {
  t.same(parseText('First line\ncontinues.\n\n  \nSecond.\r\n\r\nThird.', 'notes').blocks.map((block) => block.text), ['First line continues.', 'Second.', 'Third.'])
  const bom = await parseFile({ name: 'a.txt', bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Grüße.')]) })
  t.same(bom.blocks, [{ path: [], text: 'Grüße.' }])
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Größe\n\nÜber alles.', 'utf16le')])
  const md = await parseFile({ name: 'b.MD', bytes: utf16 })
  t.equal(md.title, 'Größe')
  t.same(md.blocks.map((block) => block.text), ['Über alles.'])
  const html = await parseFile({ name: 'c.htm', bytes: utf8('<h2 id="x">Hi</h2><p>There.</p>') })
  t.same(html.blocks, [{ path: ['Hi'], anchor: 'x', text: 'There.' }])
})

t.test('hostile files are refused with a typed error and a reason', async (t) => {
  const pdf = await pdfOf([[['Hello.']]])
  const cases: Array<[string, Uint8Array, string, RegExp, string?]> = [
    ['PDF bytes named .md', pdf, 'invalid_file', /is a PDF named as markdown/],
    ['text named .pdf', utf8('# Not a PDF'), 'invalid_file', /no %PDF- header/],
    ['binary named .txt', new Uint8Array([0x00, 0x01, 0x02, 0x03, 0x41]), 'invalid_file', /NUL/],
    ['broken UTF-8', new Uint8Array([...utf8('caf'), 0xc3, 0x28, ...utf8(' au lait')]), 'invalid_file', /neither valid UTF-8/],
    ['gzip', gzipSync(Buffer.alloc(1_000_000)), 'unsupported_file_type', /gzip-compressed/],
    ['zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'unsupported_file_type', /zip-compressed/],
    ['an unknown extension', utf8('hello'), 'unsupported_file_type', /only \.md, \.markdown/],
    ['a PDF sent as another name', utf8('hello'), 'invalid_file', /sent as application\/pdf/, 'application/pdf']
  ]
  const names: Record<string, string> = { 'PDF bytes named .md': 'x.md', 'text named .pdf': 'x.pdf', 'binary named .txt': 'x.txt', 'broken UTF-8': 'x.md', gzip: 'x.txt.gz', zip: 'x.html', 'an unknown extension': 'x.docx', 'a PDF sent as another name': 'x.txt' }
  for (const [what, bytes, code, reason, declaredType] of cases) {
    const error = await rejection(async () => await parseFile({ name: names[what]!, bytes, ...(declaredType === undefined ? {} : { declaredType }) }))
    t.equal(error.code, code, what)
    t.match(error.reason, reason, what)
    t.equal(error.statusCode, code === 'invalid_file' ? 400 : 415, what)
  }
})

t.test('a file over the size limit is refused before it is read', async (t) => {
  const big = new Uint8Array(30 * 1024 * 1024).fill(0x61)
  const started = Date.now()
  const error = await rejection(async () => await parseFile({ name: 'big.txt', bytes: big }))
  t.equal(error.code, 'payload_too_large')
  t.equal(error.statusCode, 413)
  t.match(error.reason, /more than the 20971520 accepted/)
  t.ok(Date.now() - started < 500)
  const small = await rejection(async () => await parseFile({ name: 'a.md', bytes: utf8('# x\n\n' + 'y'.repeat(200)) }, { maxBytes: 100 }))
  t.equal(small.code, 'payload_too_large', 'the limit is a parameter')
})
