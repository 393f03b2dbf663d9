import t from 'tap'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
// @ts-expect-error: plain JavaScript without declarations, loaded as the worker threads load it
import { importSource } from '../src/source-thread.mjs'

const cacheDir = fileURLToPath(new URL('../node_modules/.cache/chatsearch/threads/', import.meta.url))

interface Manifest { inputs: string[], externals: string[], bundle: string | null }
const manifestOf = (file: string): Manifest => JSON.parse(readFileSync(join(cacheDir, `${basename(file, '.ts')}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}.json`), 'utf8'))

t.test('a thread\'s TypeScript module is bundled once, made again when a file of it changes, and left to tsx when it reads import.meta', async (t) => {
  // Inside the package, so that its bare imports resolve as the services' sources do.
  const dir = await mkdtemp(join(fileURLToPath(new URL('.', import.meta.url)), 'tmp-source-thread-'))
  t.teardown(async () => {
    await rm(dir, { recursive: true, force: true })
    const mine = ['entry', 'own-url'].map((name) => `${name}-${createHash('sha256').update(join(dir, `${name}.ts`)).digest('hex').slice(0, 12)}`)
    for (const file of await readdir(cacheDir)) if (mine.some((m) => file.startsWith(m))) await rm(join(cacheDir, file), { force: true })
  })
  const entry = join(dir, 'entry.ts')
  await writeFile(entry, "import pg from 'pg'\nimport { part } from './part.js'\nexport const value: number = part + 1\nexport const poolClass = typeof pg.Pool\n")
  await writeFile(join(dir, 'part.ts'), 'export const part: number = 41\n')

  const first = await importSource(pathToFileURL(entry))
  t.equal(first.value, 42, 'the module runs, with the workspace file it imports')
  t.equal(first.poolClass, 'function', 'a third-party package is imported from where it is installed')
  const made = manifestOf(entry)
  t.same(made.inputs, [entry, join(dir, 'part.ts')].sort(), 'both files are in the bundle')
  t.ok(made.externals.some((e) => e.includes('/pg/')), 'pg is left outside it')
  t.ok(made.bundle !== null && existsSync(made.bundle), 'the bundle is kept')

  await importSource(pathToFileURL(entry))
  t.equal(manifestOf(entry).bundle, made.bundle, 'unchanged files: the same bundle')

  await writeFile(join(dir, 'part.ts'), 'export const part: number = 99\n')
  const changed = await importSource(pathToFileURL(entry))
  t.equal(changed.value, 100, 'a changed file is bundled again')
  t.not(manifestOf(entry).bundle, made.bundle)
  t.notOk(existsSync(made.bundle!), 'the stale bundle is removed')

  const ownUrl = join(dir, 'own-url.ts')
  await writeFile(ownUrl, 'export const url: string = import.meta.url\n')
  const loaded = await importSource(pathToFileURL(ownUrl))
  t.equal(loaded.url, pathToFileURL(ownUrl).href, 'a module that reads import.meta is loaded where it is, through tsx')
  t.equal(manifestOf(ownUrl).bundle, null)
})
