// What the console's browser tests share: Debian's chromium (playwright-core), why they skip where it
// or the built web app is missing, and a page with a folder for its screenshots and one for files.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { defaultWebRoot } from '../../src/web.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const MOBILE = 375
export const DESKTOP = 1280

/** Skipped, saying why, where the browser or the build is missing; under CI=true the tests must run. */
export const browserSkip = process.env.CI === 'true'
  ? false
  : !existsSync(CHROMIUM)
      ? `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`
      : !existsSync(join(defaultWebRoot, 'index.html')) ? 'the web app is not built (pnpm install builds it)' : false

interface TestLike { teardown: (fn: () => unknown) => void }

/**
 * A desktop-sized page of a fresh browser, closed when `t` ends; `shots` is E2E_SHOTS (kept) or a
 * temporary folder, `files` a temporary folder; `pageErrors` collects the page's uncaught errors.
 */
export async function browserPage (t: TestLike): Promise<{ page: Page, shots: string, files: string, pageErrors: string[] }> {
  const shots = process.env.E2E_SHOTS ?? await mkdtemp(join(tmpdir(), 'console-shots-'))
  await mkdir(shots, { recursive: true })
  if (process.env.E2E_SHOTS === undefined) t.teardown(() => rm(shots, { recursive: true, force: true }))
  const files = await mkdtemp(join(tmpdir(), 'console-e2e-files-'))
  t.teardown(() => rm(files, { recursive: true, force: true }))
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  t.teardown(() => browser.close())
  const context = await browser.newContext({ viewport: { width: DESKTOP, height: 900 } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  return { page, shots, files, pageErrors }
}

/** Signs `username` in (password `password`) and opens the project named `project` from the list: the page is then on the project. */
export async function signInToProject (page: Page, consoleUrl: string, username: string, password: string, project: string): Promise<void> {
  await page.goto(`${consoleUrl}/signin`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByLabel('Password').press('Enter')
  await page.getByRole('link', { name: project }).click()
  await page.waitForURL(/\/projects\/prj_[^/]+$/)
}
