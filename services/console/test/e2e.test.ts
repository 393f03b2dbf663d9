// The console's user story in a real browser (Debian's chromium driven by playwright-core), against
// the real console, chat and search services on one real PostgreSQL: sign in, create a project, issue
// credentials and use them with the services (a widget key from its origin only), import a catalog and follow its task, add knowledge,
// stop a crawl that does not end,
// try the playground (its chat, and its search sorted, highlighted and narrowed by a facet value found by typing), read the shopper's ratings of the replies and answer a handed-off conversation
// as a person (the shopper's client reads it), see analytics, revoke a credential and see it stop working. Every page is also saved as a
// screenshot at 1280 and 375 pixels wide (E2E_SHOTS, default a temporary folder) and checked for
// horizontal scrolling at 375.
import t from 'tap'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createProject } from '@chatsearch/auth'
import { harness, PASSWORD } from './helpers.js'
import { silentSite } from '@chatsearch/testkit/silent-site'
import { services } from './support/stack.js'
import { browserPage, browserSkip, DESKTOP, MOBILE } from './support/browser.js'

/** More brands than the 20 values a facet shows, each of five items or more. */
const BRANDS = ['Northvale', 'Pinecrest', 'Alder', 'Basalt', 'Cedarline', 'Driftwood', 'Elkhorn', 'Fjell', 'Granite', 'Harbor', 'Ironbark', 'Juniper',
  'Kestrel', 'Larchmont', 'Moraine', 'Nimbus', 'Oakridge', 'Quarry', 'Redwood', 'Sierra', 'Tundra', 'Upland', 'Vantage']
const MARKUP_DESCRIPTION = 'A bright lantern for the tent. <img src=x onerror="alert(1)"><script>alert(2)</script><b>Bold</b> & "safe"'

t.test('a team member walks the console in a browser', { skip: browserSkip, timeout: 300_000 }, async (t) => {
  const h = await harness(t)
  // A catalog of more than 50 items is imported as a task here, so that its progress is seen.
  // Crawls may reach 127.0.0.1, where a site that never answers keeps one running until it is stopped.
  const stack = await services(t, h, { catalogTask: { items: 50, bytes: 8 * 1024 * 1024 }, crawlAllowPrivateNetworks: true })
  const app = await h.app({ chatUrl: stack.chatUrl, searchUrl: stack.searchUrl })
  const consoleUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  await h.user('alice')
  // Someone else's project: never listed for alice.
  await createProject(h.db, 'Not yours')

  const { page, shots, files, pageErrors } = await browserPage(t)
  // A 401 is how the page learns that nobody is signed in (before sign-in, after sign-out): not an error.
  // The 400 a step below provokes on purpose (an origin the API refuses) is not one either.
  let refusalsExpected = 0
  page.on('console', (message) => {
    if (message.type() !== 'error' || /status of 401/.test(message.text())) return
    if (/status of 400/.test(message.text()) && refusalsExpected > 0) refusalsExpected--
    else pageErrors.push(message.text())
  })
  page.setDefaultTimeout(20_000)

  /** The page as it is now, at both widths; at 375 nothing may scroll sideways. */
  const snapshot = async (name: string) => {
    await page.screenshot({ path: join(shots, `${name}-${DESKTOP}.png`), fullPage: true })
    await page.setViewportSize({ width: MOBILE, height: 800 })
    await page.waitForTimeout(100)
    // Run in the page, where `document` is the browser's (this file is compiled without the DOM's types).
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as number
    t.ok(overflow <= 0, `${name}: no horizontal scrolling at ${MOBILE} px (overflow ${overflow} px)`)
    await page.screenshot({ path: join(shots, `${name}-${MOBILE}.png`), fullPage: true })
    await page.setViewportSize({ width: DESKTOP, height: 900 })
  }
  const api = async (url: string, key: string, body?: unknown) => await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

  try {
    // Sign in: a wrong password is refused in an alert, the right one opens the projects.
    await page.goto(`${consoleUrl}/`)
    await page.waitForURL(/\/signin/)
    await page.getByLabel('Username').fill('alice')
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').filter({ hasText: /.+/ }).waitFor()
    await snapshot('signin')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Password').press('Enter')
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor()
    t.equal(await page.getByText('Not yours').count(), 0, 'another project is not listed')

    // A project of her own.
    await page.getByLabel('Project name').fill('Trail shop')
    await page.getByRole('button', { name: 'Create project' }).click()
    await page.getByRole('link', { name: 'Trail shop' }).click()
    await page.waitForURL(/\/projects\/prj_[^/]+$/)
    const projectUrl = page.url()
    await snapshot('projects-and-project')

    // An API key (chat) and an API token (search), each shown once, work with the services.
    const issue = async (section: 'API Keys' | 'API Tokens') => {
      const card = page.locator('section', { has: page.getByRole('heading', { name: section, level: 2 }) })
      await card.getByRole('button', { name: 'Create' }).click()
      const secret = (await card.locator('code.secret').textContent())?.trim() ?? ''
      t.match(secret, section === 'API Keys' ? /^csk_chat_\w{32,}$/ : /^csk_search_\w{32,}$/, `${section}: the new credential in full`)
      t.equal(await card.getByRole('button', { name: 'Copy' }).count(), 1, `${section}: a copy button`)
      return { card, secret }
    }
    const chatKey = await issue('API Keys')
    await snapshot('credentials-new')
    await chatKey.card.getByRole('button', { name: 'I have copied it' }).click()
    t.equal(await chatKey.card.locator('code.secret').count(), 0, 'shown once: gone once dismissed')
    const searchKey = await issue('API Tokens')

    // The Widget section: a publishable key bound to the shop's origins, listed with them, beside the identity secret.
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Widget' }).click()
    await page.getByRole('heading', { name: 'Widget', level: 1 }).waitFor()
    const widgetCard = page.locator('section', { has: page.getByRole('heading', { name: 'Widget keys', level: 2 }) })
    await page.getByLabel('Allowed origins').fill('https://shop.example/cart')
    refusalsExpected++
    await page.getByRole('button', { name: 'Create widget key' }).click()
    await widgetCard.getByRole('alert').filter({ hasText: /did you mean https:\/\/shop\.example\?/ }).waitFor()
    t.pass('an origin with a path is refused, with the origin to use instead')
    await page.getByLabel('Allowed origins').fill('https://shop.example\nhttp://localhost:8080')
    await page.getByRole('button', { name: 'Create widget key' }).click()
    const widgetKey = (await widgetCard.locator('code.secret').textContent())?.trim() ?? ''
    t.match(widgetKey, /^csk_pub_\w{40}$/, 'the new widget key in full')
    await widgetCard.getByRole('button', { name: 'I have copied it' }).click()
    await widgetCard.locator('td').getByText('http://localhost:8080').waitFor()
    t.equal(await widgetCard.locator('td code').filter({ hasText: 'https://shop.example' }).count(), 1, 'listed with its origins')
    // The snippet to paste holds the key just created and the chat service's loader; the preview is the widget's own panel.
    const snippetCard = page.locator('section', { has: page.getByRole('heading', { name: 'Snippet and preview', level: 2 }) })
    const snippet = snippetCard.getByLabel('Widget snippet')
    t.equal((await snippet.textContent())?.trim(), `<script src="${stack.chatUrl}/widget/v1/loader.js" data-key="${widgetKey}" data-color="#1f5fbf" data-lang="en" async></script>`)
    await snippetCard.getByLabel('Language').selectOption('de')
    await snippetCard.getByLabel('Position').selectOption('left')
    await snippetCard.locator('chatsearch-chat h2').getByText('Fragen Sie uns').waitFor()
    t.match(await snippet.textContent(), /data-position="left" data-lang="de"/, 'the snippet follows the theme chosen')
    t.equal(await snippetCard.locator('chatsearch-chat .src a').getAttribute('href'), 'https://shop.example/help/faq#shipping', 'the preview shows a reply with its source')
    const identitySecret = (await page.getByLabel('Identity secret', { exact: true }).textContent())?.trim() ?? ''
    t.match(identitySecret, /^\w{40}$/, 'the identity secret is shown')
    await snapshot('widget')
    const fromPage = (origin: string) => fetch(`${stack.chatUrl}/newUserMessage`, {
      method: 'POST', headers: { authorization: `Bearer ${widgetKey}`, 'content-type': 'application/json', origin }, body: JSON.stringify({ user_message: 'Hello!' })
    })
    t.equal((await fromPage('https://shop.example')).status, 200, 'the widget key works from the shop\'s origin')
    t.equal((await fromPage('https://evil.example')).status, 403, 'and from no other')
    await widgetCard.getByRole('button', { name: /^Revoke / }).click()
    await widgetCard.getByRole('button', { name: 'Yes, revoke' }).click()
    await widgetCard.getByText(/Revoked widget keys \(1\)/).waitFor()
    let widgetStatus = 200
    for (let i = 0; i < 50 && widgetStatus !== 401; i++) {
      widgetStatus = (await fromPage('https://shop.example')).status
      if (widgetStatus !== 401) await page.waitForTimeout(100)
    }
    t.equal(widgetStatus, 401, 'a revoked widget key stops working')

    // Catalog: a file of 120 items, imported as a task whose progress the page follows. Their prices
    // are 20 to 139 in no order, and one brand of 24 is a single item's: the playground sorts and
    // finds it. One item's description holds markup, which the playground must show as text.
    const items = Array.from({ length: 120 }, (_, i) => ({
      id: `item-${i}`,
      title: i === 7 ? 'Ridgeline waterproof hiking boot' : i === 11 ? 'Summit lantern' : `Trail item ${i}`,
      brand: i === 13 ? 'Zephyr Gear' : BRANDS[i % BRANDS.length]!,
      category: i % 3 === 0 ? 'Footwear' : 'Camping',
      price: 20 + (i * 47) % 120,
      ...(i === 11 ? { description: MARKUP_DESCRIPTION } : {})
    }))
    await writeFile(join(files, 'catalog.json'), JSON.stringify(items))
    await page.goto(`${projectUrl}/catalog`)
    await page.getByLabel(/^Catalog file/).setInputFiles(join(files, 'catalog.json'))
    await page.getByRole('button', { name: 'Import' }).click()
    await page.getByText(/catalog\.json is being imported as a task/).waitFor()
    await page.getByText(/: succeeded/).waitFor({ timeout: 60_000 })
    await page.getByLabel('Search the catalog').fill('hiking boot')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByText('Ridgeline waterproof hiking boot').first().waitFor()
    await snapshot('catalog')

    // The search token works against the search service itself, as a shop's site would use it.
    const found = await api(`${stack.searchUrl}/search`, searchKey.secret, { search_term: 'hiking boot' })
    t.equal(found.status, 200, 'the API token searches')
    t.same(((await found.json()) as { hits: Array<{ id: string }> }).hits.map((h) => h.id), ['item-7'])

    // Catalog settings: synonyms and stop words edited in the form, then used by the search API.
    // Right after the import, whose settings reload may arrive while the form is being filled: the
    // edits stay (catalog.tsx).
    const synonyms = page.getByLabel('Synonyms', { exact: true })
    await synonyms.fill('trek boot hiking boot')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText(/line 1/i).waitFor()
    t.pass('a synonyms line without a colon is refused in the page, naming the line')
    await synonyms.fill('trek: hiking')
    await page.getByLabel('Stop words', { exact: true }).fill('the\nfor')
    await page.getByLabel('Sortable attributes', { exact: true }).fill('price')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved; the catalog is re-indexed with them.').waitFor()
    await snapshot('catalog-settings')
    const settings = await (await fetch(`${stack.searchUrl}/settings`, { headers: { authorization: `Bearer ${searchKey.secret}` } })).json() as { synonyms: unknown, stopWords: unknown }
    t.same({ synonyms: settings.synonyms, stopWords: settings.stopWords }, { synonyms: { trek: ['hiking'] }, stopWords: ['the', 'for'] }, 'the form saved both')
    const trek = await api(`${stack.searchUrl}/search`, searchKey.secret, { search_term: 'boot for the trek' })
    t.same(((await trek.json()) as { hits: Array<{ id: string }> }).hits.map((h) => h.id), ['item-7'], 'a search finds the boot through the synonym, its stop words left out')

    // Knowledge: a help page uploaded as a file and a question with its answer.
    await writeFile(join(files, 'returns.md'), '# Returns\n\n## How to return an item\n\nReturns are accepted within 30 days of delivery. Print the label from your account and drop the parcel at any post office.\n')
    await page.goto(`${projectUrl}/knowledge`)
    await page.getByLabel(/^Files/).setInputFiles(join(files, 'returns.md'))
    await page.getByRole('button', { name: 'Upload' }).click()
    await page.getByText('Returns', { exact: true }).first().waitFor({ timeout: 60_000 })
    await page.getByLabel('Question', { exact: true }).fill('Do you ship to Canada?')
    await page.getByLabel('Answer', { exact: true }).fill('Not yet: we ship within the United States only.')
    await page.getByRole('button', { name: 'Add question' }).click()
    await page.getByText('Do you ship to Canada?').first().waitFor()
    // Editing the pair opens it with its stored answer.
    await page.getByRole('button', { name: 'Edit Do you ship to Canada?' }).click()
    await page.getByRole('heading', { name: 'Edit a question and answer' }).waitFor()
    t.equal(await page.getByLabel('Answer', { exact: true }).inputValue(), 'Not yet: we ship within the United States only.', 'the stored answer, to edit')
    await page.getByRole('button', { name: 'Cancel editing' }).click()
    await snapshot('knowledge')

    // A crawl of a site that never answers is stopped from its progress: canceled, in the list too.
    const silent = await silentSite(t)
    const silentUrl = silent.url
    await page.getByLabel('Start page URL').fill(silentUrl)
    await page.getByRole('button', { name: 'Crawl', exact: true }).click()
    await page.getByText(`Crawl of ${silentUrl} started.`).waitFor()
    // Running: it has asked the site for its first URL, which never comes.
    for (const deadline = Date.now() + 30_000; silent.asked() === 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50))
    t.ok(silent.asked() > 0, 'the crawl is running: it asked the site for its first URL')
    const progress = page.getByRole('region', { name: /^Crawl [\w-]+$/ })
    const stopButton = progress.getByRole('button', { name: /^Stop crawl / })
    await stopButton.click()
    await progress.getByRole('group', { name: 'Stop this crawl? What it has done stays.' }).getByRole('button', { name: 'Yes, stop' }).click()
    await progress.getByText('Crawl: canceled').waitFor()
    t.equal(await stopButton.count(), 0, 'no Stop once it ended')
    const recent = page.locator('section', { has: page.getByRole('heading', { name: 'Recent tasks', level: 2 }) })
    await recent.getByRole('button', { name: 'Refresh' }).click()
    await recent.locator('.badge.status-canceled').first().waitFor()
    t.equal(await recent.getByRole('button', { name: /^Stop / }).count(), 0, 'nothing left to stop in the list')

    // Playground: the assistant answers from the knowledge, streamed into the page.
    await page.goto(`${projectUrl}/playground`)
    await page.getByLabel('Message', { exact: true }).fill('How many days do I have to return an item?')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.locator('.message-assistant').filter({ hasText: 'within 30 days' }).waitFor()
    await snapshot('playground')

    // Playground search: by default the request it always sent; then sorted, highlighted, and a
    // facet's values searched beyond the 20 shown.
    const searchCard = page.locator('section', { has: page.getByRole('heading', { name: 'Search', level: 2 }) })
    const sentBody = async () => JSON.parse(await searchCard.locator('.results > details pre.json').textContent() ?? 'null') as Record<string, unknown>
    const playgroundSearch = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/search') && r.request().method() === 'POST')
      await searchCard.getByRole('button', { name: 'Search', exact: true }).click()
      t.equal((await answered).status(), 200, 'the playground\'s search is answered')
      await searchCard.getByRole('status').filter({ hasText: /items? found in/ }).waitFor()
    }
    await playgroundSearch()
    t.same(await sentBody(), { search_term: '', search_type: 'keyword', filters: null, facets: ['brand', 'category'], limit: 10, show_ranking_score: true },
      'a default search sends no option')

    await searchCard.getByLabel('Sort', { exact: true }).selectOption({ label: 'price, ascending' })
    await playgroundSearch()
    const prices = await searchCard.locator('.hit dt:text-is("price") + dd').allTextContents()
    t.same(prices, ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29'], 'sorted by price ascending: the ten cheapest, cheapest first')

    await searchCard.getByLabel('Search term').fill('lantern')
    await searchCard.getByLabel('Sort', { exact: true }).selectOption({ label: 'By relevance' })
    await searchCard.getByLabel('Highlight the words found').check()
    await playgroundSearch()
    const lantern = searchCard.locator('.hit').filter({ hasText: 'Summit' })
    t.same(await lantern.locator('mark').allTextContents(), ['lantern', 'lantern'], 'the word searched is marked in the title and the description')
    t.equal(await lantern.locator('p:not(.hint)').textContent(), MARKUP_DESCRIPTION, 'the item\'s markup is shown as its text')
    t.equal(await searchCard.locator('.hit img, .hit script, .hit b').count(), 0, 'and none of it is an element')

    await searchCard.getByLabel('Search term').fill('')
    await searchCard.getByLabel('Highlight the words found').uncheck()
    await playgroundSearch()
    await searchCard.getByText('Narrow down').click()
    const brands = searchCard.getByRole('group', { name: 'brand' })
    t.equal(await brands.getByRole('checkbox').count(), 20, 'a facet shows its 20 most frequent values')
    t.equal(await brands.getByText(/Zephyr/).count(), 0, 'the brand of one item is not among them')
    const valuesFound = page.waitForResponse((r) => r.url().endsWith('/facet-search'))
    await brands.getByLabel('Find values of brand').fill('zeph')
    const facetSearch = await valuesFound
    t.same({ status: facetSearch.status(), body: facetSearch.request().postDataJSON() }, {
      status: 200, body: { facet_name: 'brand', facet_query: 'zeph', search_term: '', filters: null }
    }, 'typing searches the facet\'s values, over the items of the search shown')
    await brands.getByLabel('Zephyr Gear (1)').check()
    await searchCard.locator('.results > details pre.json', { hasText: 'Zephyr Gear' }).waitFor({ state: 'attached' })
    t.same(await searchCard.locator('.hit h3').allTextContents(), ['Trail item 13'], 'the value found filters the search as the others do')
    await searchCard.getByRole('status').filter({ hasText: '1 item found in' }).waitFor()
    await snapshot('playground-search')

    // A shopper's chat through the API key: a question the help page answers, then an action, handed off to the team.
    const question = await api(`${stack.chatUrl}/newUserMessage`, chatKey.secret, { user_message: 'How many days do I have to return an item?', consumer_id: 'shopper-1' })
    t.equal(question.status, 200, 'the API key talks to the chat service')
    const { chat_id: chatId } = await question.json() as { chat_id: string }
    const shopper = await api(`${stack.chatUrl}/newUserMessage`, chatKey.secret, { user_message: 'I want to cancel my order 1234', chat_id: chatId })
    const turn = await shopper.json() as { chat_id: string, handoff: boolean }
    t.equal(turn.handoff, true, 'cancelling an order is handed off')
    // The shopper rates both replies: the help page's up, with a word, the handoff down.
    const replies = (await (await api(`${stack.chatUrl}/readConversation?chat_id=${encodeURIComponent(chatId)}`, chatKey.secret)).json() as Array<{ msg_id: string, role: string }>)
      .filter((m) => m.role === 'assistant')
    const rate = (msgId: string, rating: object) => api(`${stack.chatUrl}/feedback`, chatKey.secret, { chat_id: chatId, msg_id: msgId, ...rating })
    t.equal((await rate(replies[0]!.msg_id, { rating: 'up', comment: 'Clear, thanks!' })).status, 200, 'the help page\'s reply rated up')
    t.equal((await rate(replies[1]!.msg_id, { rating: 'down' })).status, 200, 'the handoff rated down')

    // Conversations: the handed-off chat first, its transcript, and an answer as a person.
    await page.goto(`${projectUrl}/chats`)
    const first = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first()
    await first.getByText('Handed off').waitFor()
    t.match(await first.textContent(), /shopper-1/, 'the handed-off conversation is listed first')
    await snapshot('conversations')
    await first.getByRole('link').first().click()
    await page.getByRole('heading', { name: 'Transcript' }).waitFor()
    await page.getByText('I want to cancel my order 1234').waitFor()
    // The shopper's ratings, each with its reply.
    const ratings = await page.locator('main .message-assistant .feedback').allTextContents()
    t.equal(ratings.length, 2, 'a rating on each rated reply')
    t.match(ratings[0], /^\s*Helpful · the customer's rating, .+Clear, thanks!$/, 'up, with the comment')
    t.match(ratings[1], /^\s*Not helpful · the customer's rating, [^!]+$/, 'down, no comment')
    // Why each turn went that way, on demand and by keyboard: a "Why?" on each of the assistant's messages.
    const whys = page.locator('main details.decision')
    t.equal(await whys.count(), 2, 'one "Why?" per assistant message, none on the shopper\'s')
    t.notOk(await whys.first().getByText('Route').isVisible(), 'folded until asked')
    await whys.first().locator('summary').focus()
    await page.keyboard.press('Enter')
    await whys.first().getByText('Sentences of the help pages').waitFor()
    const evidence = await whys.first().locator('.evidence li').first().textContent()
    t.match(evidence, /^Knowledge file-returns-md-\w+#\d+ · score \d\.\d\d · used in the reply$/, 'the page that answered, its score to 2 decimals, used')
    await whys.nth(1).locator('summary').focus()
    await page.keyboard.press('Space')
    await whys.nth(1).getByText('Handed off to the team').waitFor()
    t.ok(await whys.nth(1).getByText('An action on the customer\'s own order or account').isVisible(), 'the handoff reason')
    await page.getByLabel('Your answer').fill('Hello, this is Alice from the shop: order 1234 is cancelled and refunded.')
    await page.getByRole('button', { name: 'Send answer' }).click()
    await page.locator('main').getByText('Hello, this is Alice from the shop').first().waitFor()
    await snapshot('transcript')

    const read = await api(`${stack.chatUrl}/readConversation?chat_id=${encodeURIComponent(turn.chat_id)}`, chatKey.secret)
    const conversation = await read.json() as Array<{ role: string, content: string, author?: { kind: string, username?: string } }>
    t.match(conversation.at(-1), { role: 'assistant', content: /this is Alice from the shop/, author: { kind: 'human', username: 'alice' } },
      'the shopper\'s client reads the person\'s answer in readConversation')
    t.notOk(conversation.some((m) => 'decision' in m), 'and no decision: those are for the team')

    // Analytics: the day's searches and chats as charts.
    await page.goto(`${projectUrl}/analytics`)
    await page.locator('canvas').first().waitFor()
    t.ok(await page.locator('canvas').count() >= 3, 'charts drawn')
    await page.getByText('Of 2 replies rated by customers, 1 helped and 1 did not.').waitFor()
    // Two conversations today: the shopper's, handed off, and the widget's greeting above, resolved.
    await page.getByText('1 of 2 conversations ended without a handoff or a reply rated down.').waitFor()
    const reasons = page.getByRole('region', { name: 'Handoff rate' }).getByRole('row', { name: /An action on the customer's own order or account/ })
    t.equal((await reasons.getByRole('cell').textContent())?.trim(), '1', 'the cancellation counted as an action on an order')
    await page.getByText('The median wait of 1 of 1 handed-off turns answered by the team.').waitFor()
    await page.getByText('No question was handed off for lack of an answer in this period.').waitFor()
    const cited = page.getByRole('region', { name: 'Sources cited most' }).getByRole('table', { name: 'Knowledge' })
    t.ok(Number(await cited.getByRole('cell').first().textContent()) >= 1, 'the returns page among the sources cited most')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    t.match(download.suggestedFilename(), /^analytics-30-days-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = await readFile(await download.path(), 'utf8')
    const lines = csv.trimEnd().split('\r\n')
    t.equal(lines[0], 'day,conversations,messages,searches,autocompletes,click_through_rate,conversion_rate,no_result_rate,average_click_position')
    t.equal(lines.length, 31, 'a header and the 30 days')
    t.match(lines.at(-1), new RegExp(`^${new Date().toISOString().slice(0, 10)},2,\\d+,`), 'today: the two conversations')
    await snapshot('analytics')

    // Revoking the API key: the chat service refuses it at once.
    await page.goto(projectUrl)
    const keys = page.locator('section', { has: page.getByRole('heading', { name: 'API Keys', level: 2 }) })
    await keys.getByRole('button', { name: /^Revoke / }).first().click()
    await keys.getByRole('button', { name: 'Yes, revoke' }).click()
    await keys.getByText(/revoked/i).first().waitFor()
    let status = 0
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await api(`${stack.chatUrl}/newUserMessage`, chatKey.secret, { user_message: 'hello', consumer_id: 'shopper-1' })).status
      if (status !== 401) await page.waitForTimeout(100)
    }
    t.equal(status, 401, 'a revoked API key stops working')
    await snapshot('credentials-revoked')

    // Signing out ends the session: the API answers 401 to the old page.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/signin/)
  } catch (err) {
    // The page a step failed on, to look at.
    await page.screenshot({ path: join(shots, 'failure.png'), fullPage: true }).catch(() => {})
    throw err
  }
  t.same(pageErrors, [], 'no script errors in the browser')
  t.comment(`screenshots in ${shots}`)
})
