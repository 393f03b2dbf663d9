// The widget as a shop uses it (issue 29 item 7): a page on another origin embeds the loader with a
// publishable key, and a shopper in Chromium asks, reads the streamed reply with its link, rates it,
// comes back on a new page load, is handed off (the shop's webhook receiver is told, signed) and sees
// the team's answer; a page on an origin the key does not list is refused.
import { existsSync } from 'node:fs'
import t from 'tap'
import { chromium, type Page } from 'playwright-core'
import { createKey } from '@chatsearch/auth'
import { webhookReceiver } from '@chatsearch/testkit/webhook-receiver'
import { WEBHOOK_DEFAULTS, verifySignature } from '@chatsearch/webhooks'
import { harness } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { shopPage } from './support/shop-page.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
// Run in the page, where the DOM is the browser's (this file is compiled without the DOM's types).
/** Whether the element has the focus within its shadow root. */
const FOCUSED = (el: { getRootNode: () => unknown }) => el === (el.getRootNode() as { activeElement: unknown }).activeElement
const skip = process.env.CI !== 'true' && !existsSync(CHROMIUM) ? `no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)` : false

t.test('a shopper chats with the widget on a shop\'s page', { skip, timeout: 180_000 }, async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  // The shop's receiver is on 127.0.0.1, an address webhooks refuse unless allowed. The search
  // service's worker shares the queue and may send any delivery: it gets the same settings.
  const webhooks = { ...WEBHOOK_DEFAULTS, allowPrivateNetworks: true, pollMs: 50 }
  const stack = await searchStack(t, h, shop, { webhooks }, { knowledge: true })
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, serviceToken: TOKEN, webhooks })
  const chatUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  const receiver = await webhookReceiver(t)
  const hook = await app.inject({
    method: 'POST',
    url: '/admin/webhooks',
    headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId },
    payload: { url: receiver.url, events: ['chat.handoff', 'chat.answered_by_team'] }
  })
  t.equal(hook.statusCode, 201, hook.body)
  const { secret } = hook.json() as { secret: string }
  /** The n-th request the shop's receiver got, its signature checked with the endpoint's secret. */
  const delivered = async (n: number) => {
    await receiver.until(n, 15_000)
    const got = receiver.received[n - 1]!
    return { signed: verifySignature({ header: got.headers['x-chatsearch-signature'] as string, body: got.body, secret }), event: JSON.parse(got.body) as { type: string, data: Record<string, unknown> } }
  }

  // The key is made for the page's origin, which is known once the page listens: the page reads it at load.
  const attrs: Record<string, string> = { key: 'csk_pub_placeholderplaceholder', lang: 'en', color: '#0a7d3b' }
  const origin = await shopPage(t, chatUrl, attrs)
  attrs.key = (await createKey(h.db, shop.projectId, 'widget', 'tester', [origin])).key
  const strangerOrigin = await shopPage(t, chatUrl, attrs)

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  t.teardown(() => browser.close())
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (err) => pageErrors.push(err.message))
  const requested: string[] = []
  page.on('request', (r) => requested.push(new URL(r.url()).pathname))

  const launcher = (p: Page) => p.locator('chatsearch-launcher button')
  const panel = (p: Page) => p.locator('chatsearch-chat')
  const ask = async (p: Page, text: string) => {
    await panel(p).locator('textarea').fill(text)
    await panel(p).locator('textarea').press('Enter')
  }

  await t.test('the loader draws the launcher; the panel is loaded only when opened', async (t) => {
    await page.goto(origin)
    await launcher(page).waitFor()
    t.equal(await launcher(page).getAttribute('aria-label'), 'Open the chat')
    t.notOk(requested.includes('/widget/v1/panel.js'), 'no panel before the shopper opens the chat')
    await launcher(page).click()
    await panel(page).locator('section[role=dialog]').waitFor()
    t.ok(requested.includes('/widget/v1/panel.js'), 'the panel, once opened')
    t.equal(await page.evaluate('document.activeElement?.tagName'), 'CHATSEARCH-CHAT', 'focus moves into the panel')
    t.equal(await panel(page).locator('textarea').evaluate(FOCUSED), true, 'to the message field')
    t.match(await panel(page).locator('.log').textContent(), /Hello! Ask me/, 'the greeting')
  })

  let chatId = ''
  await t.test('a question gets a streamed reply with its source linked, and a thumbs up is stored', async (t) => {
    const streamed = page.waitForResponse((r) => r.url().endsWith('/newUserMessage'))
    await ask(page, 'How long does shipping take?')
    const response = await streamed
    t.match(response.headers()['content-type'], /^text\/event-stream/, 'streamed as server-sent events')
    const source = panel(page).locator('.assistant ul.src a')
    await source.waitFor({ timeout: 20_000 })
    t.equal(await source.getAttribute('href'), 'https://demo-shop.example/help/faq#faq-shipping-time', 'the FAQ, linked')
    t.equal(await source.getAttribute('rel'), 'noopener noreferrer')
    t.match(await panel(page).locator('.assistant').last().textContent(), /Standard delivery takes 3 to 5 working days/)
    t.equal(await panel(page).locator('.log').getAttribute('aria-live'), 'polite', 'replies are announced')
    const kept = JSON.parse(await page.evaluate("Object.entries(localStorage).find(([k]) => k.startsWith('chatsearch-widget:'))?.[1] ?? '{}'") as string) as { token?: string, chatId?: string }
    t.match(kept.token, /^v1\./, 'the consumer token is kept')
    chatId = kept.chatId ?? ''
    t.ok(chatId, 'and the chat')

    const up = panel(page).locator('.assistant button[aria-label=Helpful]').last()
    const down = panel(page).locator('.assistant button[aria-label="Not helpful"]').last()
    for (const button of [up, down]) {
      t.equal(await button.locator('svg').count(), 1, 'a thumb is drawn,')
      t.equal((await button.textContent())?.trim(), '', 'not an emoji, which shows as a box where no emoji font is installed')
    }
    await up.click()
    await panel(page).locator('.assistant .note').last().getByText('Thank you').waitFor()
    t.equal(await up.getAttribute('aria-pressed'), 'true')
    const { rows } = await h.db.query("SELECT feedback_rating FROM messages WHERE chat_id = $1 AND role = 'assistant'", [chatId])
    t.same(rows.map((r) => r.feedback_rating), ['up'], 'the rating is stored with the reply')
  })

  await t.test('Escape closes the chat and gives focus back to the launcher', async (t) => {
    await panel(page).locator('textarea').press('Escape')
    await panel(page).locator('section[role=dialog]').waitFor({ state: 'hidden' })
    t.equal(await launcher(page).evaluate(FOCUSED), true)
    t.equal(await launcher(page).getAttribute('aria-expanded'), 'false')
  })

  await t.test('the conversation comes back on the next page load; a handoff shows the team\'s answer as it arrives', async (t) => {
    await page.reload()
    await launcher(page).click()
    await panel(page).locator('.user').getByText('How long does shipping take?').waitFor()
    t.equal(await panel(page).locator('.assistant button[aria-label=Helpful]').first().getAttribute('aria-pressed'), 'true', 'the rating given is shown')
    await ask(page, 'I want to cancel my order')
    await panel(page).locator('p.st').getByText('A member of our team will see this conversation').waitFor({ timeout: 20_000 })
    const handoff = await delivered(1)
    t.equal(handoff.signed, true, 'the shop\'s receiver is told, and the signature checks out')
    t.match(handoff.event, { type: 'chat.handoff', data: { chat_id: chatId, user_message: 'I want to cancel my order' } })
    const answered = await app.inject({
      method: 'POST',
      url: `/admin/chats/${encodeURIComponent(chatId)}/answer`,
      headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId },
      payload: { username: 'maria', content: 'Your order 1042 is cancelled; the refund follows in 3 days.' }
    })
    t.equal(answered.statusCode, 201, answered.body)
    const team = panel(page).locator('.team')
    await team.getByText('Your order 1042 is cancelled').waitFor({ timeout: 15_000 })
    t.match(await team.textContent(), /Team member \(maria\)/, 'named as the team\'s')
    t.equal(await panel(page).locator('.m.user').count(), 2, 'each question once')
    t.equal(await panel(page).locator('.m.assistant').count(), 3, 'the greeting and each reply once')
    t.equal(await team.count(), 1, 'the team\'s answer once, however often the widget looked')
    const answer = await delivered(2)
    t.equal(answer.signed, true)
    t.match(answer.event, { type: 'chat.answered_by_team', data: { chat_id: chatId, username: 'maria' } })
  })

  await t.test('on a narrow screen the panel fills it, and Tab does not leave it for the page it covers', async (t) => {
    const dialog = panel(page).locator('section[role=dialog]')
    t.equal(await dialog.getAttribute('aria-modal'), 'false', 'opened on a wide screen: it floats over the page')
    await page.setViewportSize({ width: 375, height: 700 })
    const box = await dialog.boundingBox()
    t.same(box, { x: 0, y: 0, width: 375, height: 700 })
    await panel(page).locator('section[role=dialog][aria-modal=true]').waitFor({ timeout: 5000 })
    t.equal(await dialog.getAttribute('aria-modal'), 'true', 'narrowed while open: now a modal dialog')
    await panel(page).locator('textarea').press('Escape')
    await launcher(page).click()
    t.equal(await dialog.getAttribute('aria-modal'), 'true', 'opened on a narrow screen: a modal dialog')
    const focusIsInPanel = async () => await page.evaluate('document.activeElement !== null && document.activeElement.tagName') === 'CHATSEARCH-CHAT'
    const controls = await panel(page).locator('button, a[href], textarea').count()
    const left: number[] = []
    for (let i = 1; i <= controls + 2; i++) {
      await page.keyboard.press('Tab')
      if (!await focusIsInPanel()) left.push(i)
    }
    t.same(left, [], `${controls + 2} presses of Tab, none left the panel (${controls} controls)`)
    await panel(page).locator('button.x').focus()
    await page.keyboard.press('Shift+Tab')
    t.equal(await panel(page).locator('button.s').evaluate(FOCUSED), true, 'Shift+Tab on its first control goes to its last')
    await page.keyboard.press('Tab')
    t.equal(await panel(page).locator('button.x').evaluate(FOCUSED), true, 'and Tab on its last to its first')
    await page.setViewportSize({ width: 1280, height: 900 })
    // The media query's change event comes after the resize, not with it.
    await panel(page).locator('section[role=dialog][aria-modal=false]').waitFor({ timeout: 5000 })
    t.equal(await dialog.getAttribute('aria-modal'), 'false', 'widened: it floats again')
    await panel(page).locator('button.s').focus()
    await page.keyboard.press('Tab')
    t.equal(await focusIsInPanel(), false, 'on a wide screen the page stays reachable')
  })

  await t.test('a page on an origin the key does not list is refused', async (t) => {
    const other = await context.newPage()
    await other.goto(strangerOrigin)
    await launcher(other).click()
    await ask(other, 'hello')
    const alert = panel(other).locator('p.st[role=alert]')
    await alert.waitFor({ timeout: 10_000 })
    t.equal(await alert.textContent(), 'The chat is not available on this page right now.')
    t.equal(await panel(other).locator('textarea').inputValue(), 'hello', 'the message is kept to send again')
    const preflight = await fetch(`${chatUrl}/newUserMessage`, { method: 'OPTIONS', headers: { origin: strangerOrigin, 'access-control-request-method': 'POST' } })
    t.equal(preflight.status, 403)
    t.equal(((await preflight.json()) as { code: string }).code, 'origin_not_allowed')
    t.equal(preflight.headers.get('access-control-allow-origin'), null, 'the browser is not let through')
    const direct = await fetch(`${chatUrl}/newUserMessage`, { method: 'POST', headers: { origin: strangerOrigin, authorization: `Bearer ${attrs.key!}`, 'content-type': 'application/json' }, body: JSON.stringify({ user_message: 'hello' }) })
    t.equal(direct.status, 403)
    t.equal(((await direct.json()) as { code: string }).code, 'origin_not_allowed')
    await other.close()
  })

  t.same(pageErrors, [], 'no uncaught errors on the shop\'s page')
})
