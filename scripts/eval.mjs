// `pnpm eval`: the shop assistant's evaluation (services/chat/eval/run.ts), its output shown as it
// comes, in one child process that receives Ctrl-C directly (no `pnpm run` in between), as
// scripts/bench.mjs runs a benchmark.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = new URL('..', import.meta.url).pathname
if (process.argv.length > 2) {
  process.stderr.write([
    'usage: pnpm eval',
    '  EVAL_SPLIT=dev|heldout|all   which entries are sent (default all)',
    '  EVAL_ONLY=name,name          only these datasets (saleor, help/saleor, catalogs/demo, …)',
    '  EVAL_VERBOSE=1               list every check with its reply (held-out ones only with EVAL_SHOW_HELDOUT=1)',
    '  EVAL_SHOW_HELDOUT=1          list held-out replies too (tuning must not look at them)',
    '  EVAL_DEADLINE_S=seconds      the time limit (default 900 s)',
    ''
  ].join('\n'))
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
