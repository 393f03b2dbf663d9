// Runs every workspace package's test suite in turn, showing its output as it comes, then prints
// one closing line for the whole run: "tests: N passed, N failed".
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const packages = ['packages', 'services']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.test)

function runSuite (dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.env.npm_execpath, 'test'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
    let tail = ''
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      tail = (tail + chunk.toString()).slice(-4000)
    })
    child.on('close', (code) => {
      // tap's closing summary: "# { total: 12, pass: 11, fail: 1 }"
      const summary = /# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?/.exec(tail)
      const pass = Number(summary?.[2] ?? 0)
      const fail = Number(summary?.[3] ?? 0) + (code === 0 || Number(summary?.[3] ?? 0) > 0 ? 0 : 1)
      resolve({ dir, code, pass, fail })
    })
  })
}

const results = []
for (const dir of packages) {
  process.stdout.write(`\n=== ${dir.slice(root.length)} ===\n`)
  results.push(await runSuite(dir))
}
process.stdout.write('\n')
for (const r of results) process.stdout.write(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.dir.slice(root.length)}: ${r.pass} passed, ${r.fail} failed\n`)
const passed = results.reduce((n, r) => n + r.pass, 0)
const failed = results.reduce((n, r) => n + r.fail, 0)
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`)
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1
