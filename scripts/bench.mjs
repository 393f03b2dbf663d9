// `pnpm bench <name>`: runs one package's benchmark with its output shown as it comes, in one child
// process that receives Ctrl-C directly (no `pnpm run` in between).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = new URL('..', import.meta.url).pathname
const benchmarks = {
  chat: { dir: 'services/chat', script: 'bench/chat.ts' },
  widget: { dir: 'services/chat', script: 'bench/widget.ts' },
  search: { dir: 'services/search', script: 'bench/search.ts' },
  engine: { dir: 'services/search', script: 'bench/engine-cpu.ts' },
  relevance: { dir: 'services/search', script: 'bench/relevance.ts' },
  assistant: { dir: 'services/chat', script: 'bench/assistant.ts' },
  cache: { dir: 'services/search', script: 'bench/cache.ts' },
  embed: { dir: 'services/search', script: 'bench/embed.ts' },
  import: { dir: 'services/search', script: 'bench/import-load.ts' },
  knowledge: { dir: 'services/search', script: 'bench/knowledge.ts' },
  console: { dir: 'services/console', script: 'bench/pages.ts' },
  soak: { dir: 'apps/cli', script: 'bench/soak.ts' }
}

const name = process.argv[2]
const bench = Object.hasOwn(benchmarks, name ?? '') ? benchmarks[name] : undefined
if (bench === undefined || process.argv.length > 3) {
  process.stderr.write(`usage: pnpm bench <name>\n  benchmarks: ${Object.keys(benchmarks).join(', ')}\n`)
  process.exit(2)
}

const cwd = join(root, bench.dir)
const script = join(cwd, bench.script)
if (!existsSync(script)) {
  process.stderr.write(`bench: ${script} does not exist\n`)
  process.exit(2)
}

// tsx's loader, as the package resolves it; the script runs in this one child process.
const tsx = createRequire(join(cwd, 'package.json')).resolve('tsx')
const child = spawn(process.execPath, ['--import', pathToFileURL(tsx).href, script], { cwd, stdio: 'inherit' })

// Ctrl-C reaches the benchmark directly (same process group) and it cleans up after itself;
// a signal sent to this process alone is passed on. Either way, wait for it to finish.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { if (child.exitCode === null) child.kill(signal) })
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1)
})
