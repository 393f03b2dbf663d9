// Merchandising in a real browser (Debian's chromium driven by playwright-core), against the real
// console, chat and search services on one real PostgreSQL, as e2e.test.ts: a team member writes
// search rules on the Rules page (refused with a message when wrong, kept when right) and a shop's
// POST /search follows them; shoppers' searches become a popular search that she excludes from
// autocomplete on the catalog page; shoppers' clicks and conversions (POST /events) show on the
// analytics page as click-through, conversion and no-result rates and an average click position.
// Figures are read from what the page renders for people and screen readers (tables, text), never
// from pixels. Pages are saved as screenshots at 1280 and 375 pixels wide (E2E_SHOTS, default a
// temporary folder) and checked for horizontal scrolling at 375.
import t from 'tap'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator } from 'playwright-core'
import { createKey } from '@chatsearch/auth'
import { harness, PASSWORD } from './helpers.js'
import { services } from './support/stack.js'
import { browserPage, browserSkip, DESKTOP, MOBILE, signInToProject } from './support/browser.js'

const DAY_MS = 86_400_000

interface Hits { hits: Array<{ id: string }>, query_id: string }
interface Candidate { query: string, count: number, searchers: number, hits: number | null, status: string }

/** An instant written as the time at +02:00, as someone in Paris in summer would type it (whole seconds). */
const atPlusTwo = (ms: number) => new Date(ms + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+02:00')
/** The UTC day of now, as the analytics label days. */
const today = () => new Date().toISOString().slice(0, 10)

/** The texts of a table row's cells, header cell included. */
const cellsOf = async (row: Locator) => (await row.locator('th, td').allTextContents()).map((text) => text.trim())

t.test('a team member merchandises the catalog in a browser', { skip: browserSkip, timeout: 300_000 }, async (t) => {
  const h = await harness(t)
  const stack = await services(t, h)
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl })
  const consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  await h.user('alice')
  const projectId = await h.project('Trail shop', { alice: 'owner' })
  // The shop's own search token, as its site holds it (issuing one in the page is e2e.test.ts's).
  const token = (await createKey(h.db, projectId, 'search', 'alice')).key

  const { page, shots, files, pageErrors } = await browserPage(t)
  // The rules the search service refuses answer 400, which the browser logs: counted, not errors.
  const refusals: string[] = []
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    if (/status of 400/.test(message.text())) refusals.push(message.text())
    else if (!/status of 401/.test(message.text())) pageErrors.push(message.text())
  })
  page.setDefaultTimeout(20_000)

  /** The page as it is now, at both widths; at 375 nothing may scroll sideways. */
  const snapshot = async (name: string) => {
    await page.screenshot({ path: join(shots, `merchandising-${name}-${DESKTOP}.png`), fullPage: true })
    await page.setViewportSize({ width: MOBILE, height: 800 })
    await page.waitForTimeout(100)
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as number
    t.ok(overflow <= 0, `${name}: no horizontal scrolling at ${MOBILE} px (overflow ${overflow} px)`)
    await page.screenshot({ path: join(shots, `merchandising-${name}-${MOBILE}.png`), fullPage: true })
    await page.setViewportSize({ width: DESKTOP, height: 900 })
  }
  /** The search service itself, over HTTP, with the shop's token. */
  const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => await fetch(`${stack.searchUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const search = async (term: string, consumer: string) => {
    const res = await api('POST', '/search', { search_term: term, consumer_id: consumer })
    t.equal(res.status, 200, `POST /search for "${term}" as ${consumer}`)
    return await res.json() as Hits
  }
  const complete = async (term: string) =>
    ((await (await api('POST', '/autocomplete', { autocomplete_term: term, limit: 20 })).json()) as { suggestions: string[] }).suggestions
  const candidates = async () => ((await (await api('GET', '/suggestions/candidates?limit=50')).json()) as { results: Candidate[] }).results
  const storedRules = async () => ((await (await api('GET', '/rules')).json()) as { rules: unknown[] }).rules
  // Every search the shop's token makes below, which the analytics count.
  let searches = 0

  try {
    // Signed in, the project of her own opened from the list.
    await signInToProject(page, consoleUrl, 'alice', PASSWORD, 'Trail shop')

    // A small catalog, imported in the page at once (no task).
    const items = [
      ['boot-1', 'Ridgeline hiking boot'], ['boot-2', 'Summit waterproof hiking boot'], ['boot-3', 'Trailhead leather hiking boot'],
      ['boot-4', 'Canyon lightweight hiking boot'], ['boot-5', 'Glacier hiking boot for winter'], ['sock-1', 'Alpine merino wool socks'],
      ['tent-1', 'Two-person dome tent'], ['pack-1', 'Daypack of 20 litres'], ['lamp-1', 'Head lamp of 300 lumens'],
      ['bottle-1', 'Insulated steel bottle'], ['jacket-1', 'Rain jacket with a hood'], ['poles-1', 'Carbon trekking poles']
    ].map(([id, title], i) => ({ id, title, brand: i % 2 === 0 ? 'Northvale' : 'Pinecrest', category: id!.split('-')[0], price: 20 + i }))
    await writeFile(join(files, 'catalog.json'), JSON.stringify(items))
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Catalog' }).click()
    await page.getByLabel(/^Catalog file/).setInputFiles(join(files, 'catalog.json'))
    await page.getByRole('button', { name: 'Import' }).click()
    await page.getByText('catalog.json: 12 items received, 12 indexed, 0 unchanged; 12 items in the catalog.').waitFor()

    // How the engine ranks "hiking boot" without rules: what the rules below are measured against.
    const firstDay = today()
    const baseline = (await search('hiking boot', 'shopper-a')).hits.map((hit) => hit.id)
    searches++
    t.ok(baseline.includes('boot-1'), 'without rules, the boot to hide is found')
    t.notOk(baseline.includes('sock-1') || baseline.includes('tent-1'), 'and neither the socks nor the tent')

    // Rules: refused in the page with a message while wrong, nothing saved.
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Rules' }).click()
    await page.getByRole('heading', { name: 'Search rules', level: 1 }).waitFor()
    await page.getByText('No rules: searches answer as the engine ranks.').waitFor()
    const editor = page.getByLabel('Rules (JSON), first rule first')
    const save = page.getByRole('button', { name: 'Save rules' })
    const alert = page.getByRole('alert').filter({ hasText: /.+/ })
    const now = Math.floor(Date.now() / 1000) * 1000
    const boots = { id: 'boots-week', query: 'Hiking Boot', match: 'contains', pin: [{ item_id: 'sock-1', position: 2 }], hide: ['boot-1'] }
    const refuse = async (rules: unknown, message: RegExp, what: string) => {
      await editor.fill(JSON.stringify(rules, null, 2))
      await save.click()
      await alert.filter({ hasText: message }).waitFor()
      t.match(await alert.textContent(), message, what)
    }
    await refuse([{ id: 'boots-week', query: 'hiking boot' }], /^Rule 1 \(boots-week\): "match" is "exact" or "contains"\.$/,
      'a rule without its match: told in the page, naming the rule')
    await editor.fill('[{ "id": "boots-week", ')
    await save.click()
    await alert.filter({ hasText: /not valid JSON/ }).waitFor()
    t.match(await alert.textContent(), /^Rules: this is not valid JSON/, 'text that is not JSON: told in the page')
    await refuse([{ ...boots, pin: [{ item_id: 'sock-1', position: 0 }] }], /pin\.0\.position must be >= 1/,
      'a pin at position 0: the search service\'s message, naming the field')
    await refuse([{ ...boots, active_from: atPlusTwo(now + DAY_MS), active_until: atPlusTwo(now - DAY_MS) }],
      /^rule 1 \(boots-week\): active_until must come after active_from$/, 'a window that ends before it starts: the search service\'s message')
    t.equal(refusals.length, 2, 'the two the search service checks were sent to it and refused (400)')
    t.same(await storedRules(), [], 'nothing refused was saved')
    t.equal(await page.getByText('No rules: searches answer as the engine ranks.').count(), 1, 'the page still lists none')
    await snapshot('rules-refused')

    // A rule that pins the socks second and hides a boot for searches containing "hiking boot", this
    // month, its dates typed at +02:00; and one, from ten days on, that would pin the tent first.
    const rules = [
      { ...boots, active_from: atPlusTwo(now - DAY_MS), active_until: atPlusTwo(now + 30 * DAY_MS) },
      { id: 'tent-later', query: 'hiking boot', match: 'exact', pin: [{ item_id: 'tent-1', position: 1 }], active_from: atPlusTwo(now + 10 * DAY_MS) }
    ]
    await editor.fill(JSON.stringify(rules, null, 2))
    await save.click()
    const table = page.getByRole('table', { name: 'Search rules, in precedence order' })
    await table.getByRole('row').filter({ hasText: 'tent-later' }).waitFor()
    t.equal(await page.getByRole('status').filter({ hasText: 'Rules saved (2); searches follow them at once.' }).count(), 1,
      'the save is confirmed, and the confirmation stays once the list is read again')
    t.equal(await alert.count(), 0, 'the earlier error is gone')
    // As the service keeps them: `hide` always there, instants in UTC.
    const stored = [
      { ...boots, active_from: new Date(now - DAY_MS).toISOString(), active_until: new Date(now + 30 * DAY_MS).toISOString() },
      { id: 'tent-later', query: 'hiking boot', match: 'exact', pin: [{ item_id: 'tent-1', position: 1 }], hide: [], active_from: new Date(now + 10 * DAY_MS).toISOString() }
    ]
    t.same(JSON.parse(await editor.inputValue()), stored, 'once saved, the editor shows the rules as the service stored them')

    // Kept: read again after a reload, as the service stores them (instants in UTC).
    await page.reload()
    await table.getByRole('row').filter({ hasText: 'tent-later' }).waitFor()
    t.same(JSON.parse(await editor.inputValue()), stored, 'after a reload the editor holds both rules, their instants in UTC')
    t.same(await storedRules(), stored, 'as GET /rules of the search service answers them')
    const [boot, tent] = [table.getByRole('row').filter({ hasText: 'boots-week' }), table.getByRole('row').filter({ hasText: 'tent-later' })]
    const bootCells = await cellsOf(boot)
    t.same([bootCells[0], bootCells[1], bootCells[2], bootCells[3], bootCells[5]], ['boots-week', 'containing “Hiking Boot”', 'sock-1 at 2', 'boot-1', 'Active'],
      'the rule listed with its pin and hide, in force now')
    t.match(bootCells[4], /\d{4}.* to .*\d{4}/, 'between its two dates')
    const tentCells = await cellsOf(tent)
    t.same([tentCells[0], tentCells[1], tentCells[2], tentCells[3], tentCells[5]], ['tent-later', 'exactly “hiking boot”', 'tent-1 at 1', '—', 'Scheduled'],
      'the later rule listed as not yet in force')
    t.match(tentCells[4], /^From .*\d{4}/, 'from its date on')
    await snapshot('rules')

    // The shop's search follows them: the socks second, the hidden boot gone, the tent not yet pinned.
    const ruled = await search('hiking boot', 'shopper-a')
    searches++
    const organic = baseline.filter((id) => id !== 'boot-1')
    t.same(ruled.hits.map((hit) => hit.id), [organic[0], 'sock-1', ...organic.slice(1)],
      'POST /search: the pinned socks at position 2, the hidden boot left out, the rest in the engine\'s order')

    // Popular searches: three shoppers search for the socks, and autocomplete suggests the search.
    const popular = 'merino wool socks'
    const bySocks: Hits[] = []
    for (const shopper of ['shopper-a', 'shopper-b', 'shopper-c']) {
      bySocks.push(await search(popular, shopper))
      searches++
    }
    t.equal(bySocks[0]!.hits[0]?.id, 'sock-1', 'the search finds the socks')
    // Searches are counted off the request path (written about every second): waited for over the API.
    let status: string | undefined
    const suggestedBy = Date.now() + 15_000
    while (status !== 'suggested' && Date.now() < suggestedBy) {
      status = (await candidates()).find((c) => c.query === popular)?.status
      if (status !== 'suggested') await sleep(200)
    }
    t.equal(status, 'suggested', 'GET /suggestions/candidates: three distinct shoppers made it, it found something')
    t.ok((await complete('merino wo')).includes(popular), 'POST /autocomplete suggests it')

    // The catalog page lists it, the most searched first, and excludes it.
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Catalog' }).click()
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Popular searches', level: 2 }) })
    await section.getByRole('status').filter({ hasText: '2 popular searches.' }).waitFor()
    const rows = section.locator('tbody tr')
    const socks = await cellsOf(rows.nth(0))
    t.same([socks[0], socks[1], socks[2], socks[4], socks[5]], [popular, '3', '3', 'Suggested', 'Exclude'],
      'the socks first: made 3 times by 3 shoppers, suggested, with a button to exclude it')
    t.ok(Number(socks[3]) > 0, `with its keyword results (${socks[3]})`)
    t.same(await cellsOf(rows.nth(1)), ['hiking boot', '2', '1', String(baseline.length), 'Too few shoppers', 'Exclude'],
      'the boots second: one shopper, not suggested; its keyword results those the engine finds, the rules aside')
    await snapshot('catalog-popular')
    await section.getByRole('button', { name: `Exclude ${popular}` }).click()
    await section.getByRole('status').filter({ hasText: `“${popular}” is no longer suggested.` }).waitFor()
    await section.getByRole('button', { name: `Include ${popular}` }).waitFor()
    t.equal((await cellsOf(rows.nth(0)))[4], 'Excluded', 'listed as excluded')
    t.equal(await page.getByLabel('Searches never suggested by autocomplete').inputValue(), popular, 'and in the settings form below')
    const settings = await (await api('GET', '/settings')).json() as { suggestionsExcluded: string[] }
    t.same(settings.suggestionsExcluded, [popular], 'GET /settings: suggestionsExcluded names it')
    t.equal((await candidates()).find((c) => c.query === popular)?.status, 'excluded', 'GET /suggestions/candidates: excluded')
    t.notOk((await complete('merino wo')).includes(popular), 'POST /autocomplete no longer suggests it')
    await page.reload()
    await section.getByRole('button', { name: `Include ${popular}` }).waitFor()
    t.pass('still excluded after a reload')

    // An edit in progress survives a change made elsewhere on the page: including the search again
    // reloads the settings while the synonyms are being typed.
    const synonymsField = page.getByLabel('Synonyms', { exact: true })
    await synonymsField.fill('wool: merino')
    await section.getByRole('button', { name: `Include ${popular}` }).click()
    await page.getByText('The settings changed while you were editing them', { exact: false }).waitFor()
    t.equal(await synonymsField.inputValue(), 'wool: merino', 'the typed synonyms stay while the settings change elsewhere')
    await page.getByRole('button', { name: 'Discard my edits and show the new settings' }).click()
    t.equal(await synonymsField.inputValue(), '', 'discarded on request')
    t.equal(await page.getByLabel('Searches never suggested by autocomplete').inputValue(), '', 'and the form shows the search included again')
    await section.getByRole('button', { name: `Exclude ${popular}` }).click()
    await section.getByRole('button', { name: `Include ${popular}` }).waitFor()
    const excludedBy = Date.now() + 10_000
    while (await page.getByLabel('Searches never suggested by autocomplete').inputValue() !== popular && Date.now() < excludedBy) await page.waitForTimeout(100)
    t.equal(await page.getByLabel('Searches never suggested by autocomplete').inputValue(), popular, 'an untouched form shows the change made elsewhere')

    // The settings form, saved with autocomplete's threshold changed, keeps its message (it was made
    // again, and the message lost, whenever that threshold changed).
    await page.getByLabel('Shoppers a search needs before autocomplete suggests it').fill('2')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.', { exact: true }).waitFor()
    await page.waitForTimeout(500)
    t.equal(await page.getByText('Settings saved.', { exact: true }).count(), 1, '"Settings saved." stays once the settings are read again')
    t.equal((await (await api('GET', '/settings')).json() as { suggestionsMinSearchers: number }).suggestionsMinSearchers, 2, 'GET /settings: the new threshold')
    t.equal(await page.getByLabel('Searches never suggested by autocomplete').inputValue(), popular, 'the exclusion is kept')

    // Analytics: a click on the pinned socks (position 2) and a conversion after the ruled search, a
    // click on the first hit of one shopper's search for the socks.
    const events = await api('POST', '/events', [
      { type: 'click', query_id: ruled.query_id, item_id: 'sock-1', position: 2, consumer_id: 'shopper-a' },
      { type: 'conversion', query_id: ruled.query_id, item_id: 'sock-1', consumer_id: 'shopper-a' },
      { type: 'click', query_id: bySocks[1]!.query_id, item_id: 'sock-1', position: 1, consumer_id: 'shopper-b' }
    ])
    t.same([events.status, await events.json()], [200, { recorded: 3 }], 'POST /events records the three')
    const lastDay = today()

    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Analytics' }).click()
    const outcomes = page.getByRole('table', { name: 'Search outcomes per day', exact: true })
    const positions = page.getByRole('table', { name: 'Average click position per day', exact: true })
    const perDay = page.getByRole('table', { name: 'Searches per day', exact: true })
    await page.getByRole('heading', { name: 'Search outcomes per day', level: 2 }).waitFor()
    await page.getByRole('heading', { name: 'Average click position per day', level: 2 }).waitFor()
    t.ok(await page.locator('section', { has: page.getByRole('heading', { name: 'Search outcomes per day', exact: true }) }).locator('canvas').count() === 1 &&
      await page.locator('section', { has: page.getByRole('heading', { name: 'Average click position per day', exact: true }) }).locator('canvas').count() === 1,
    'each of the two new figures draws its chart')
    if (firstDay !== lastDay) {
      // The searches straddle midnight UTC: their figures are split over two days.
      t.comment(`searches from ${firstDay} to ${lastDay}: the day's figures are not checked`)
    } else {
      // The autocompletes are written about a second after they are made: read again until they are.
      let counted: string[] = []
      const countedBy = Date.now() + 15_000
      while (Date.now() < countedBy) {
        counted = await cellsOf(perDay.getByRole('row').filter({ hasText: lastDay }))
        if (counted[1] === String(searches) && counted[2] === '2') break
        await sleep(300)
        await page.reload()
        await perDay.waitFor()
      }
      t.same(counted, [lastDay, String(searches), '2'], `searches per day: today's ${searches} searches and 2 autocompletes`)
      // Two of the five searches were clicked, one converted, none found nothing; clicks at 2 and 1.
      t.same(await cellsOf(outcomes.getByRole('row').filter({ hasText: lastDay })), [lastDay, '40.0 %', '20.0 %', '0.0 %'],
        'today: click-through rate 2 of 5, conversion rate 1 of 5, no-result rate 0')
      t.same(await cellsOf(positions.getByRole('row').filter({ hasText: lastDay })), [lastDay, '1.5'], 'today: clicks at 2 and 1, on average 1.5')
      const yesterday = new Date(Date.parse(lastDay) - DAY_MS).toISOString().slice(0, 10)
      t.same(await cellsOf(outcomes.getByRole('row').filter({ hasText: yesterday })), [yesterday, '—', '—', '—'], 'a day without searches: no rates')
    }
    await snapshot('analytics')
  } catch (err) {
    // The page a step failed on, to look at.
    await page.screenshot({ path: join(shots, 'merchandising-failure.png'), fullPage: true }).catch(() => {})
    throw err
  }
  t.same(pageErrors, [], 'no script errors in the browser')
  t.comment(`screenshots in ${shots}`)
})
