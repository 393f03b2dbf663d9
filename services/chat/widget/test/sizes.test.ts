import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { widgetFileNames as widgetFiles } from '@chatsearch/contracts'
import { widgetDist } from '../files.js'

// Budgets of issue 29: the loader every page of the shop downloads, and the panel loaded on opening.
const BUDGET: Record<string, number> = { 'loader.js': 10 * 1024, 'panel.js': 60 * 1024 }

t.test('the built loader and panel stay within their gzip budgets', async (t) => {
  for (const file of widgetFiles) {
    const built = await readFile(widgetDist + file)
    const gzipped = gzipSync(built, { level: 9 }).length
    t.ok(gzipped <= BUDGET[file]!, `${file}: ${gzipped} B gzip ≤ ${BUDGET[file]} B`)
    t.notMatch(built.toString(), /\bimport\s*\(|\bimport\s+[\w{*]/, `${file} is one classic script, nothing imported`)
  }
})

t.test('the loader asks for the very panel built with it (its content hash)', async (t) => {
  const loader = await readFile(widgetDist + 'loader.js', 'utf8')
  t.notMatch(loader, /__PANEL_VERSION__/)
  t.match(loader, /panel\.js/)
})
