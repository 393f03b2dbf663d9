// Webhooks in a real browser (Debian's chromium driven by playwright-core), against the real console,
// chat and search services on one real PostgreSQL, as e2e.test.ts: a team member adds an endpoint on
// the Webhooks page (its signing secret shown once), sends a test event that a receiver on 127.0.0.1
// gets, signed with that secret, and sees the delivery succeed in the log; an endpoint that answers
// 500 shows its attempts and last error; she edits, disables and deletes endpoints. Pages are saved
// as screenshots at 1280 and 375 pixels wide and checked for horizontal scrolling at 375.
import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import t from 'tap'
import { webhookReceiver } from '@chatsearch/testkit/webhook-receiver'
import { harness, PASSWORD } from './helpers.js'
import { services } from './support/stack.js'
import { browserPage, browserSkip, DESKTOP, MOBILE } from './support/browser.js'

const webhooks = { timeoutMs: 2000, maxAttempts: 2, retryBaseMs: 100, pollMs: 100, allowPrivateNetworks: true }

t.test('a team member configures webhooks in a browser and sees the deliveries', { skip: browserSkip, timeout: 300_000 }, async (t) => {
  const h = await harness(t)
  const stack = await services(t, h, {}, { webhooks })
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl })
  const consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  await h.user('alice')
  const projectId = await h.project('Trail shop', { alice: 'owner' })
  const hook = await webhookReceiver(t)
  const broken = await webhookReceiver(t, (_n, res) => { res.statusCode = 500; res.end('helpdesk is down') })

  const { page, shots, pageErrors } = await browserPage(t)
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 401/.test(message.text())) pageErrors.push(message.text())
  })
  page.setDefaultTimeout(20_000)
  const snapshot = async (name: string) => {
    await page.screenshot({ path: join(shots, `webhooks-${name}-${DESKTOP}.png`), fullPage: true })
    await page.setViewportSize({ width: MOBILE, height: 800 })
    await page.waitForTimeout(100)
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as number
    t.ok(overflow <= 0, `${name}: no horizontal scrolling at ${MOBILE} px (overflow ${overflow} px)`)
    await page.screenshot({ path: join(shots, `webhooks-${name}-${MOBILE}.png`), fullPage: true })
    await page.setViewportSize({ width: DESKTOP, height: 900 })
  }

  try {
    await page.goto(`${consoleUrl}/signin`)
    await page.getByLabel('Username').fill('alice')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Password').press('Enter')
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor()
    await page.goto(`${consoleUrl}/projects/${projectId}`)
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    await page.getByText('No endpoints yet.').waitFor()

    // Add an endpoint for handoffs and ratings: its secret is shown once.
    await page.getByLabel('Endpoint URL').fill(hook.url)
    await page.getByRole('checkbox', { name: /feedback\.created/ }).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = (await page.getByRole('group', { name: 'Signing secret' }).locator('code.secret').textContent())?.trim() ?? ''
    t.match(secret, /^whsec_/, 'the signing secret, shown once')
    await snapshot('added')
    await page.getByRole('button', { name: 'I have copied it' }).click()
    const row = page.getByRole('row').filter({ hasText: hook.url })
    t.match(await row.textContent(), /chat\.handoff.*feedback\.created.*Enabled/)

    // Send a test event: the receiver gets it, signed with the secret, and the log says so.
    await row.getByRole('button', { name: /^Send test event/ }).click()
    await hook.until(1)
    const got = hook.received[0]!
    const [, ts, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(got.headers['x-chatsearch-signature'])) ?? []
    t.equal(v1, createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex'), 'signed with the secret the page showed')
    t.match(JSON.parse(got.body), { type: 'ping', project_id: projectId })
    const log = page.locator('section', { has: page.getByRole('heading', { name: /^Delivery log of / }) })
    const delivered = log.getByRole('row').filter({ hasText: 'ping' })
    for (let i = 0; i < 30 && !/succeeded/.test(await delivered.textContent().catch(() => '') ?? ''); i++) {
      await page.waitForTimeout(200)
      await log.getByRole('button', { name: 'Refresh' }).click()
    }
    t.match(await delivered.textContent(), /ping.*succeeded.*1.*200/, 'the log: ping, succeeded, 1 attempt, answered 200')
    await snapshot('delivered')

    // An endpoint that answers 500: its attempts and last error are in the log, and it can be retried.
    await page.getByLabel('Endpoint URL').fill(broken.url)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByRole('button', { name: 'I have copied it' }).click()
    const brokenRow = page.getByRole('row').filter({ hasText: broken.url })
    await brokenRow.getByRole('button', { name: /^Send test event/ }).click()
    await broken.until(2)
    const failed = log.getByRole('row').filter({ hasText: 'ping' })
    for (let i = 0; i < 30 && !/failed/.test(await failed.textContent().catch(() => '') ?? ''); i++) {
      await page.waitForTimeout(200)
      await log.getByRole('button', { name: 'Refresh' }).click()
    }
    t.match(await failed.textContent(), /ping.*failed.*2.*500.*answered 500: helpdesk is down/, 'failed after 2 attempts, the last error kept')
    // The retry's answer comes after the log's own refresh, 1.5 s after the test event: its message
    // must survive that refresh (the log was remounted, and the message lost, before).
    await page.route('**/deliveries/*/retry', async (route) => { await new Promise((resolve) => setTimeout(resolve, 1600)); await route.continue() })
    await failed.getByRole('button', { name: /^Retry/ }).click()
    // The console confirms the retry first: a failure below is then the delivery's, not a lost click.
    await log.getByRole('status').filter({ hasText: 'Delivery sent again.' }).waitFor({ timeout: 10_000 })
    await page.unroute('**/deliveries/*/retry')
    await broken.until(3)
    t.pass('a retried delivery is sent again')
    await snapshot('failed')

    // Edit the first endpoint's events, disable the second, delete it.
    await row.getByRole('button', { name: /^Edit/ }).click()
    const edit = page.getByRole('form', { name: `Edit ${hook.url}` })
    await edit.getByRole('checkbox', { name: /chat\.answered_by_team/ }).check()
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Endpoint saved.').waitFor()
    await row.getByText('chat.answered_by_team').waitFor()
    t.match(await row.textContent(), /chat\.handoff.*chat\.answered_by_team.*feedback\.created/)
    await brokenRow.getByRole('button', { name: /^Disable/ }).click()
    await brokenRow.getByText('Disabled').waitFor()
    await brokenRow.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('button', { name: /^Yes, delete/ }).click()
    await page.getByText('Endpoint deleted.').waitFor()
    await page.getByRole('row').filter({ hasText: broken.url }).waitFor({ state: 'detached' })
    t.equal(await page.getByRole('row').filter({ hasText: broken.url }).count(), 0, 'deleted')
  } catch (err) {
    await page.screenshot({ path: join(shots, 'webhooks-failure.png'), fullPage: true }).catch(() => {})
    throw err
  }
  t.same(pageErrors, [], 'no script errors in the browser')
  t.comment(`screenshots in ${shots}`)
})
