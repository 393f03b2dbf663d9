import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const child = fileURLToPath(new URL('./fixtures/bounded-child.ts', import.meta.url))

/** Runs the fixture with `deadlineMs`; once it says ready, sends `signals` (if any), 100 ms apart. */
function runChild (deadlineMs: number, signals: NodeJS.Signals[] = []): Promise<{ code: number | null, lines: string[] }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, String(deadlineMs)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    proc.stdout.on('data', (chunk: Buffer) => {
      const before = out
      out += chunk.toString()
      if (!before.includes('ready\n') && out.includes('ready\n')) {
        signals.forEach((signal, i) => setTimeout(() => proc.kill(signal), 100 * i))
      }
    })
    proc.on('error', reject)
    proc.on('exit', (code) => resolve({ code, lines: out.trim().split('\n') }))
  })
}

const CLEAN_UP = ['step: last registered, stopping=true', 'log: clean-up step failed: Error: boom', 'step: first registered']

t.test('SIGTERM: the steps run last first, a failing one logged, and the exit code is 143', async (t) => {
  const { code, lines } = await runChild(60_000, ['SIGTERM'])
  t.equal(code, 143)
  t.same(lines, ['ready', 'log: terminated, cleaning up', ...CLEAN_UP])
})

t.test('a second signal during the clean-up does not cut it short', async (t) => {
  const { code, lines } = await runChild(60_000, ['SIGINT', 'SIGINT'])
  t.equal(code, 130)
  t.same(lines, ['ready', 'log: interrupted, cleaning up', ...CLEAN_UP])
})

t.test('past its deadline the run cleans up and exits with 1', async (t) => {
  const { code, lines } = await runChild(1500)
  t.equal(code, 1)
  t.same(lines, ['ready', 'log: still running after 1.5 s, giving up', ...CLEAN_UP])
})
