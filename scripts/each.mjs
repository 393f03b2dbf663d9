// Runs one package script (`test`, `typecheck`) in every workspace package in turn, showing its output
// as it comes (`pnpm -r run` interleaves parallel packages and prefixes every line) and going on
// past a failing package.
// For `test` it ends with a line a package (its counts, its minutes and the first 20 failures it printed)
// and one for the whole run: "tests: N passed, N failed".
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const script = process.argv[2]
if (script === undefined) {
  process.stderr.write('usage: node scripts/each.mjs <script>\n')
  process.exit(2)
}
const root = new URL('..', import.meta.url).pathname

/** The workspace's package folders, as pnpm-workspace.yaml lists them (`dir/*` or `dir`). */
function workspaceDirs () {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')
  const list = /^packages:\n((?:[ \t]+-.*\n?)+)/m.exec(yaml)?.[1] ?? ''
  return [...list.matchAll(/-\s*['"]?([^'"\s#]+)/g)].flatMap(([, entry]) => entry.endsWith('/*')
    ? readdirSync(join(root, entry.slice(0, -2))).sort().map((name) => join(root, entry.slice(0, -2), name))
    : [join(root, entry)])
}

const packages = workspaceDirs()
  .filter((dir) => existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.[script])

function run (dir) {
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [process.env.npm_execpath, 'run', script], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
    let tail = ''
    let line = ''
    // The failed assertions and files, named again in the closing summary: a CI log may keep only its end.
    const failed = []
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      tail = (tail + chunk.toString()).slice(-4000)
      const lines = (line + chunk.toString()).split('\n')
      line = lines.pop().slice(-4000)
      for (const l of lines) if (/^\s*not ok \d+ - /.test(l) && failed.length < 20) failed.push(l.trimEnd().slice(0, 300))
    })
    child.on('close', (code) => {
      // tap's closing summary: "# { total: 12, pass: 11, fail: 1 }"
      const summary = /# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?/.exec(tail)
      const pass = Number(summary?.[2] ?? 0)
      const reported = Number(summary?.[3] ?? 0)
      // A suite that failed without reporting a failed assertion (a crash) still counts as one failure.
      const fail = reported + (code !== 0 && reported === 0 ? 1 : 0)
      resolve({ name: dir.slice(root.length), code, pass, fail, failed, minutes: (Date.now() - started) / 60_000 })
    })
  })
}

const results = []
for (const dir of packages) {
  process.stdout.write(`\n=== ${script}: ${dir.slice(root.length)} ===\n`)
  results.push(await run(dir))
}
process.stdout.write('\n')
for (const r of results) {
  const counts = script === 'test' ? `: ${r.pass} passed, ${r.fail} failed (${r.minutes.toFixed(1)} min)` : ''
  process.stdout.write(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name}${counts}\n`)
  for (const l of r.failed) process.stdout.write(`       ${l}\n`)
}
if (script === 'test') {
  const sum = (key) => results.reduce((n, r) => n + r[key], 0)
  process.stdout.write(`tests: ${sum('pass')} passed, ${sum('fail')} failed\n`)
}
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1
