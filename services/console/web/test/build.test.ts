import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { build } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))

t.test('the production build is a page of hashed files with nothing inline', async (t) => {
  const outDir = await mkdtemp(join(tmpdir(), 'console-web-'))
  t.teardown(() => rm(outDir, { recursive: true, force: true }))
  await build({ root, logLevel: 'silent', build: { outDir, emptyOutDir: true } })

  const html = await readFile(join(outDir, 'index.html'), 'utf8')
  const assets = await readdir(join(outDir, 'assets'))

  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
  t.equal(scripts.length, 1, 'one script element: the entry')
  for (const [, attributes, content] of scripts) {
    t.match(attributes, /\bsrc="\/assets\/index-[\w-]{8}\.js"/, 'the entry is a hashed file under /assets')
    t.equal(content!.trim(), '', 'the script element has no inline code')
  }
  t.notMatch(html, /<style\b/, 'no style element')
  t.notMatch(html, /\sstyle=/, 'no style attribute')
  t.notMatch(html, /\son[a-z]+=/i, 'no inline event handler')
  t.match(html, /<link rel="stylesheet"[^>]* href="\/assets\/index-[\w-]{8}\.css"/, 'the styles are a hashed file')

  for (const [, file] of html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)) {
    t.ok(assets.includes(file!), `${file} is in the build`)
  }
  const analytics = assets.filter((f) => /^analytics-[\w-]{8}\.js$/.test(f))
  t.equal(analytics.length, 1, 'the charts are a chunk of their own, loaded by the analytics page only')

  const entry = await readFile(join(outDir, 'assets', assets.find((f) => /^index-.*\.js$/.test(f))!), 'utf8')
  // Chart.js tags the arrays it watches with `_chartjs`.
  t.notMatch(entry, /_chartjs/, 'the entry chunk holds no chart code')
  t.match(await readFile(join(outDir, 'assets', analytics[0]!), 'utf8'), /_chartjs/, 'the analytics chunk does')
  for (const file of assets.filter((f) => f.endsWith('.js'))) {
    // The Content Security Policy allows no eval: code built from strings would be refused.
    t.notMatch(await readFile(join(outDir, 'assets', file), 'utf8'), /\bnew Function\(|\beval\(/, `${file} builds no code from strings`)
  }
})
