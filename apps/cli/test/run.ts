import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const packageDir = fileURLToPath(new URL('..', import.meta.url))

export interface CliResult { code: number, stdout: string, stderr: string }

/** Runs a TypeScript entry point (a path from this package) as its `pnpm` script does, in its own process. */
export function runScript (script: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: packageDir, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : Number(err.code ?? 1), stdout, stderr }))
  })
}

/** Runs the admin CLI as a user would, in its own process. */
export const cli = (args: string[], env: Record<string, string>) => runScript('src/cli.ts', args, env)

export function startStack (env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
    cwd: packageDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** Resolves with everything printed once `text` has appeared on stdout, rejects after `ms`. */
export function waitForOutput (child: ChildProcess, text: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${ms} ms:\n${out}\n${err}`)), ms)
    child.stderr?.on('data', (c: Buffer) => { err += c.toString() })
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString()
      if (out.includes(text)) {
        clearTimeout(timer)
        resolve(out)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before "${text}":\n${out}\n${err}`))
    })
  })
}

/**
 * The child's exit code once it exited and its output was read to the end: at 'exit' its stdio
 * may still be open (Node's docs), and the last lines it wrote not yet seen by the test.
 */
export function exited (child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const closed = child.exitCode !== null && child.stdio.every((stream) => stream === null || stream === undefined || stream.destroyed)
    if (closed) { resolve(child.exitCode); return }
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`did not exit within ${ms} ms`)) }, ms)
    child.once('close', (code) => { clearTimeout(timer); resolve(code) })
  })
}
