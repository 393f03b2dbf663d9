import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

interface Reporter { fail: (message: string) => void }

/** A program's path: on PATH, or in the sbin folders where Debian puts nginx. */
export function findTool (name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin']
  for (const dir of dirs.filter((d) => d !== '')) {
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {}
  }
  return undefined
}

export function tool (name: string): string {
  const path = findTool(name)
  if (path === undefined) throw new Error(`${name} is not installed`)
  return path
}

/**
 * Tests that need programs from Debian: false when they are all there, otherwise the reason to skip.
 * In CI (CI=true, where .ci/run installs them) a missing program is a failure, never a skip.
 */
export function skipWithout (t: Reporter, names: string[], install: string): string | false {
  const missing = names.filter((name) => findTool(name) === undefined)
  if (missing.length === 0) return false
  const reason = `${missing.join(' and ')} not installed (${install})`
  if (process.env.CI === 'true') t.fail(`${reason}: CI must run these tests, .ci/run installs them`)
  return reason
}
