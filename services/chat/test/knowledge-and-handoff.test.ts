import t from 'tap'
import { get, harness, post } from './helpers.js'
import { demoKnowledge } from '@chatsearch/search'
import { searchStack, TOKEN } from './support/search-stack.js'
import { startFakeOpenAi } from './support/fake-openai.js'
import { promisedActions } from '../src/assistant/promises.js'

interface Citation { source: string, reference: string, confidence: number, title?: string, url?: string }
interface Turn { assistant_response: string, chat_id: string, classification: string, citations: Citation[], handoff: boolean }

// One real search service holding the demo catalog's first items and the demo shop's knowledge
// (services/search/catalog/knowledge: shipping, returns, warranty and payment pages, ten FAQs).
t.test('the assistant answers from the knowledge and hands off what only a person can do', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const stack = await searchStack(t, h, shop, {}, { knowledge: true })
  const pages = (await demoKnowledge() as Array<{ content?: string, answer?: string }>).map((d) => d.content ?? d.answer ?? '')
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, serviceToken: TOKEN })
  const replies: string[] = []
  const ask = async (message: string, extra: Record<string, unknown> = { consumer_id: 'shopper' }) => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: message, ...extra })
    t.equal(res.statusCode, 200, message)
    const body = res.json() as Turn
    replies.push(body.assistant_response)
    return body
  }
  const chats = async () => (await get(app, shop.key, '/listAllProjectChats')).json() as { chats: Array<{ id: string, needs_human: boolean }> }
  const needsHuman = async (chatId: string) => (await chats()).chats.find((c) => c.id === chatId)?.needs_human
  const admin = (chatId: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }) =>
    app.inject({ method: 'POST', url: `/admin/chats/${encodeURIComponent(chatId)}/answer`, headers, payload: body as object })

  await t.test('an FAQ whose question is the message answers with its answer, verbatim and cited', async (t) => {
    const turn = await ask('How long does shipping take?')
    t.equal(turn.assistant_response, 'Standard delivery takes 3 to 5 working days within the continental United States; express delivery arrives the next working day when you order before 2 pm Eastern Time.')
    t.match(turn.citations, [{ source: 'faq', reference: 'faq-shipping-time', title: 'How long does shipping take?', url: 'https://demo-shop.example/help/faq#faq-shipping-time' }])
    t.equal(turn.handoff, false)
    t.equal(await needsHuman(turn.chat_id), false)
  })

  await t.test('a question a help page answers gets its sentences as written, with the section linked', async (t) => {
    const turn = await ask('Do orders to Alaska take longer?')
    t.match(turn.assistant_response, /Alaska and Hawaii take 2 to 4 extra working days\./)
    t.match(turn.assistant_response, /https:\/\/demo-shop\.example\/help\/shipping#/)
    const cited = turn.citations.find((c) => c.source === 'knowledge')
    t.match(cited, { reference: /^shipping#/, title: /^Shipping › /, url: /^https:\/\/demo-shop\.example\/help\/shipping#/ })
    t.equal(turn.handoff, false)
    t.equal(turn.citations.length, 1, 'one page answers; nothing else is quoted')
    t.ok(pages.some((content) => content.includes('Alaska and Hawaii take 2 to 4 extra working days.')), 'the sentence is the page\'s own')
  })

  await t.test('a product question still gets items from the catalog', async (t) => {
    const turn = await ask('do you have waterproof hiking boots under $150?')
    t.ok(turn.citations.length > 0)
    t.ok(turn.citations.every((c) => c.source === 'catalog'), 'items, not help pages')
    t.equal(turn.handoff, false)
  })

  await t.test('a request no item matches word for word still finds its items by meaning', async (t) => {
    const turn = await ask('actually, I need a tent for stargazing')
    t.ok(turn.citations.length > 0 && turn.citations.every((c) => c.source === 'catalog' && /tent/i.test(c.title ?? '')), 'tents')
    t.equal(turn.handoff, false)
  })

  await t.test('a gift request gets products, not a refusal', async (t) => {
    const turn = await ask('I need a gift for my dad who loves coffee, around $80')
    t.ok(turn.citations.some((c) => c.source === 'catalog'), turn.assistant_response)
    t.equal(turn.handoff, false)
  })

  await t.test('an action on an order is handed off, honestly, and the chat needs a person', async (t) => {
    const turn = await ask('I want to cancel my order')
    t.equal(turn.handoff, true)
    t.match(turn.assistant_response, /cannot|not able/)
    t.match(turn.assistant_response, /flagged/)
    t.notMatch(turn.assistant_response, /first/, 'nothing lists flagged chats first yet: the reply does not say so')
    t.same(promisedActions(turn.assistant_response), [])
    t.equal(await needsHuman(turn.chat_id), true)
  })

  await t.test('a refund is handed off with what the help pages say about refunds', async (t) => {
    const turn = await ask('Please refund my order, the jacket did not fit')
    t.equal(turn.handoff, true)
    t.ok(turn.citations.every((c) => c.source !== 'catalog'), 'no items for a refund')
    t.same(promisedActions(turn.assistant_response), [])
  })

  await t.test('asking for a person, or complaining, is handed off', async (t) => {
    for (const message of ['Can I talk to a real person please?', 'This is the worst service ever, my parcel arrived broken and nobody answers']) {
      const turn = await ask(message)
      t.equal(turn.handoff, true, message)
      t.same(promisedActions(turn.assistant_response), [], message)
    }
  })

  await t.test('a question nothing answers is handed off; a search for products that finds none is not', async (t) => {
    const hours = await ask('What are your opening hours on Sundays?')
    t.equal(hours.handoff, true, hours.assistant_response)
    t.same(hours.citations, [])
    t.match(hours.assistant_response, /rather not guess|cannot answer that reliably|Rather than guess/)
    for (const message of ['do you have a unicycle for clowns?', 'my back hurts after sitting at my desk all day, what unicycle should I get?']) {
      const turn = await ask(message)
      t.equal(turn.handoff, false, message)
    }
  })

  await t.test('a question about the rules is answered, not handed off', async (t) => {
    const turn = await ask('What is your return policy?')
    t.equal(turn.handoff, false)
    t.match(turn.citations, [{ source: 'faq', reference: 'faq-return-policy' }])
    t.match(turn.assistant_response, /within 30 days of delivery/)
  })

  await t.test('a team member answers a handed-off chat through the admin route', async (t) => {
    const turn = await ask('where is my order? it has not arrived')
    t.equal(turn.handoff, true)
    t.equal(await needsHuman(turn.chat_id), true)

    t.equal((await admin(turn.chat_id, { content: 'hi', username: 'ana' }, { authorization: `Bearer ${shop.key}` })).statusCode, 401, 'a project key does not open admin routes')
    t.equal((await admin(turn.chat_id, { bad: true }, { authorization: `Bearer ${shop.key}` })).json().code, 'unauthorized', 'nor learns what their bodies must hold')
    t.equal((await admin(turn.chat_id, { content: 'hi', username: 'ana' }, { authorization: `Bearer ${TOKEN}` })).statusCode, 401, 'the service token must name its project')
    t.equal((await admin(turn.chat_id, { content: 'hi', username: 'ana' }, { authorization: `Bearer ${TOKEN}`, 'x-project-id': other.projectId })).json().code, 'chat_not_found', 'another project\'s chat is not found')
    t.equal((await admin(turn.chat_id, { content: '   ', username: 'ana' })).statusCode, 400, 'an empty answer')
    t.equal((await admin(turn.chat_id, { content: 'hi' })).json().code, 'missing_parameters')
    t.equal((await admin(turn.chat_id, { content: 'hi', username: 'ana', extra: 1 })).statusCode, 400)
    t.equal(await needsHuman(turn.chat_id), true, 'refused answers change nothing')

    const answer = 'Your parcel left on Monday; the carrier says it arrives tomorrow.'
    const res = await admin(turn.chat_id, { content: answer, username: 'ana' })
    t.equal(res.statusCode, 201)
    t.match(res.json(), { role: 'assistant', content: answer, author: { kind: 'human', username: 'ana' }, citations: [] })
    t.equal(await needsHuman(turn.chat_id), false, 'answered: no longer waiting for a person')

    const conversation = (await get(app, shop.key, '/readConversation', { chat_id: turn.chat_id })).json() as Array<{ role: string, content: string, author?: { kind: string, username?: string } }>
    t.same(conversation.map((m) => [m.role, m.author?.kind ?? null]), [['user', null], ['assistant', 'assistant'], ['assistant', 'human']])
    t.match(conversation[2], { content: answer, author: { kind: 'human', username: 'ana' } })

    const next = await ask('thanks! and how long is the warranty?', { chat_id: turn.chat_id })
    t.equal(next.handoff, false)
    t.equal(await needsHuman(turn.chat_id), false)
    t.equal((await admin('no-such-chat', { content: 'hi', username: 'ana' })).json().code, 'chat_not_found')
  })

  await t.test('follow-ups resolve from the items named before', async (t) => {
    const list = await ask('do you have tents?')
    t.ok(list.citations.length >= 3, 'a list of tents')
    const [first, second, third] = list.citations
    const byId = new Map(stack.items.map((i) => [i.id, i]))
    const chat = { chat_id: list.chat_id }

    const price = await ask('How much is the third one?', chat)
    t.same(price.citations.map((c) => c.reference), [third!.reference])
    t.equal(price.assistant_response, `${byId.get(third!.reference)!.title} costs $${byId.get(third!.reference)!.price.toFixed(2)}.`)

    const compared = await ask('which of these two is better rated?', chat)
    t.same(compared.citations.map((c) => c.reference), [first!.reference, second!.reference], 'the first two of the list, not the item of the last reply')
    t.match(compared.assistant_response, /is better rated\.$|are level on rating\.$/)

    const which = await ask('Is it in stock?', chat)
    t.match(which.assistant_response, /^Which one do you mean: the first \(.+\) or the second \(.+\)\?$/, 'two items were just compared: ask which')

    const stock = await ask('is the second one in stock?', chat)
    t.same(stock.citations.map((c) => c.reference), [second!.reference])
    t.match(stock.assistant_response, /(?:is in stock|is currently out of stock)\.$/)
    t.equal(stock.handoff, false)

    const fresh = await ask('do you have espresso machines?', chat)
    t.ok(fresh.citations.length > 0 && fresh.citations.every((c) => !list.citations.some((l) => l.reference === c.reference)), 'a new subject searches afresh')

    const cheapest = Math.min(...fresh.citations.map((c) => byId.get(c.reference)!.price))
    const cheaper = await ask('cheaper?', chat)
    t.ok(cheaper.citations.length > 0, cheaper.assistant_response)
    for (const c of cheaper.citations) {
      const item = byId.get(c.reference)!
      t.ok(item.price < cheapest, `${item.title} costs ${item.price}, less than ${cheapest}`)
      t.match(item.title, /espresso/i, 'still espresso machines')
    }
  })

  await t.test('a follow-up that names a subject of its own is answered from its own words when the conversation\'s find nothing', async (t) => {
    const list = await ask('do you have tents?')
    t.ok(list.citations.length > 0, 'a list of tents')
    // "them" leans on the list: the knowledge is searched with the tents and the earphones, and nothing clears.
    const turn = await ask('can I return earphones if I opened them?', { chat_id: list.chat_id })
    t.match(turn.assistant_response, /earphones whose hygiene seal is broken cannot be returned/)
    t.match(turn.citations, [{ source: 'knowledge', reference: /^returns#/ }])
    t.equal(turn.handoff, false)
  })

  await t.test('with a model: it reads the help pages through search_knowledge and cites what it quotes', async (t) => {
    const fake = await startFakeOpenAi(t)
    // The fake model asks the knowledge, then answers with the first passage it got, marked with its id.
    fake.handle(() => ({
      toolCalls: (messages) => messages.some((m) => m.role === 'tool') ? [] : [{ name: 'search_knowledge', arguments: { query: String(messages.at(-1)!.content) } }],
      text: (messages) => {
        const result = messages.findLast((m) => m.role === 'tool')
        if (result === undefined) return ''
        const passage = (JSON.parse(String(result?.content ?? '{"passages":[]}')) as { passages: Array<{ id: string, text: string }> }).passages[0]
        return passage === undefined ? 'I could not find that.' : `${passage.text} [${passage.id}]`
      }
    }))
    const modelApp = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, llm: { baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 5000, retries: 0, promptTokens: 3000 } })
    const res = await post(modelApp, shop.key, '/newUserMessage', { user_message: 'How long does shipping take?', consumer_id: 'model' })
    const turn = res.json() as Turn
    t.match(turn.citations, [{ source: 'faq', reference: 'faq-shipping-time', url: 'https://demo-shop.example/help/faq#faq-shipping-time' }])
    t.match(turn.assistant_response, /^Standard delivery takes 3 to 5 working days/)
    t.notMatch(turn.assistant_response, /\[faq-/, 'the marker is taken out')
    t.equal(modelApp.assistant.stats.llmFallbacks, 0)

    // A refund is handed off by the template, whatever the model would say.
    const asked = fake.requests.length
    t.match((await post(modelApp, shop.key, '/newUserMessage', { user_message: 'I want a refund for my order', consumer_id: 'model' })).json(), { handoff: true })
    t.equal(fake.requests.length, asked, 'the model is not asked to word a handoff')
  })

  t.test('no reply of these turns promises an action', async (t) => {
    for (const reply of replies) t.same(promisedActions(reply), [], reply)
  })
})
