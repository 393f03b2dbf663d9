// `pnpm eval`: the shop assistant's evaluation (services/chat/eval/run.ts), its output shown as it
// comes, in one child process that receives Ctrl-C directly (no `pnpm run` in between), as
// scripts/bench.mjs runs a benchmark.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = new URL('..', import.meta.url).pathname
if (process.argv.length > 2) {
  process.stderr.write('usage: pnpm eval\n  (EVAL_VERBOSE=1 lists every check, EVAL_DEADLINE_S changes the 300 s limit)\n')
  process.exit(2)
}
const cwd = join(root, 'services/chat')
// tsx's loader, as the package resolves it; the evaluation runs in this one child process.
const tsx = createRequire(join(cwd, 'package.json')).resolve('tsx')
const child = spawn(process.execPath, ['--import', pathToFileURL(tsx).href, join(cwd, 'eval/run.ts')], { cwd, stdio: 'inherit' })

// Ctrl-C reaches the evaluation directly (same process group) and it cleans up after itself;
// a signal sent to this process alone is passed on. Either way, wait for it to finish.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { if (child.exitCode === null) child.kill(signal) })
}
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1)
})
