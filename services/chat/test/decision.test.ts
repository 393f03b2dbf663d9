import { randomUUID } from 'node:crypto'
import t from 'tap'
import { Value } from 'typebox/value'
import fastJson from 'fast-json-stringify'
import { parse } from 'csv-parse/sync'
import { ReadConversationResponse, TurnDecision } from '@chatsearch/contracts'
import { get, harness, post } from './helpers.js'
import { searchStack, TOKEN } from './support/search-stack.js'
import { startFakeOpenAi } from './support/fake-openai.js'
import { openAiChatModel, type ChatMessage } from '../src/assistant/llm/client.js'

interface Message { msg_id: string, role: string, content: string, author?: { kind: string }, decision?: TurnDecision }

/** Reads a server-sent event stream into its events. */
async function readEvents (response: Response): Promise<Array<{ event: string, data: unknown }>> {
  const text = await response.text()
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
    data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown
  }))
}

// Decision 17: each assistant message keeps why its turn went that way, for the team only.
t.test('each assistant turn keeps its decision for the team, never for the shopper', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant()
  const stack = await searchStack(t, h, shop, {}, { knowledge: true })
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, serviceToken: TOKEN })
  const admin = (url: string, query: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, query, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId } })

  // One conversation through the public route: small talk, an FAQ, catalog items, a follow-up, a handoff.
  const say = async (message: string, chatId?: string) => {
    const res = await post(app, shop.key, '/newUserMessage', { user_message: message, ...(chatId === undefined ? { consumer_id: 'shopper' } : { chat_id: chatId }) })
    t.equal(res.statusCode, 200, message)
    t.same(Object.keys(res.json()).sort(), ['assistant_response', 'chat_id', 'citations', 'classification', 'handoff'], `${message}: the reply has no decision`)
    return res.json() as { chat_id: string, citations: Array<{ source: string, reference: string, confidence: number }> }
  }
  const { chat_id: chatId } = await say('Hello!')
  const faq = await say('How long does shipping take?', chatId)
  const boots = await say('do you have waterproof hiking boots under $150?', chatId)
  const second = await say('how much is the second one?', chatId)
  await say('I want to cancel my order 1234', chatId)
  const transcript = async () => {
    const res = await admin(`/admin/chats/${chatId}`)
    t.equal(res.statusCode, 200)
    return (res.json() as { messages: Message[] }).messages
  }

  t.test('the admin transcript returns each assistant message\'s decision', async (t) => {
    const assistant = (await transcript()).filter((m) => m.role === 'assistant')
    const decisions = assistant.map((m) => m.decision!)
    for (const d of decisions) t.ok(Value.Check(TurnDecision, d), `${JSON.stringify(d)} is a TurnDecision`)
    t.same(decisions.map((d) => d.route), ['small_talk', 'faq', 'catalog', 'follow_up', 'handoff'])
    t.same(decisions[0]!.evidence, [], 'small talk weighs no evidence')
    // The evidence weighed: the best of each source, best first, those the reply cites marked used at the score it cites them with.
    const cited = (c: { source: string, reference: string, confidence: number }) => ({ source: c.source, reference: c.reference, score: c.confidence, used: true })
    for (const [i, turn] of [[1, faq], [2, boots]] as const) {
      const evidence = decisions[i]!.evidence
      t.same(evidence.map((e) => e.score), [...evidence.map((e) => e.score)].sort((a, b) => b - a), 'best first')
      t.same(evidence.filter((e) => e.used), turn.citations.map(cited), 'what the reply cites is marked used, at its score')
      t.ok(evidence.some((e) => e.source === 'catalog') && evidence.some((e) => e.source !== 'catalog'), 'both sources were weighed')
    }
    t.match(decisions[1]!.evidence[0], { source: 'faq', reference: 'faq-shipping-time', used: true }, 'the FAQ that answered weighed most')
    t.ok(boots.citations.length > 0)
    t.same(decisions[3]!.evidence.map((e) => e.reference), second.citations.map((c) => c.reference), 'a follow-up weighs only the items it is about')
    t.equal(decisions[4]!.handoff_reason, 'action', 'cancelling an order is an action on the shopper\'s own order')
    t.notOk(decisions.slice(0, 4).some((d) => 'handoff_reason' in d), 'only a handoff has a reason')
  })

  t.test('readConversation never shows a decision', async (t) => {
    const res = await get(app, shop.key, '/readConversation', { chat_id: chatId })
    t.equal(res.statusCode, 200)
    const messages = res.json() as Message[]
    t.equal(messages.length, 10)
    t.notOk(messages.some((m) => 'decision' in m))
    t.notMatch(res.body, /"decision"|"route"|"evidence"/)
    const stored = await h.db.query('SELECT count(*)::int AS n FROM messages WHERE chat_id = $1 AND decision IS NOT NULL', [chatId])
    t.equal(stored.rows[0].n, 5, 'though every assistant message has one stored')
  })

  t.test('the public serialiser drops a decision that would reach it', async (t) => {
    const message = { msg_id: 'm', role: 'assistant', content: 'Hi', timestamp: new Date().toISOString(), citations: [], author: { kind: 'assistant' } }
    const json = fastJson(ReadConversationResponse)([{ ...message, decision: { route: 'small_talk', evidence: [] } }])
    t.same(JSON.parse(json), [message])
  })

  t.test('a streamed reply has no decision either', async (t) => {
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const res = await fetch(`${url}/newUserMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ user_message: 'How long does shipping take?', consumer_id: 'streamer' })
    })
    const events = await readEvents(res)
    t.equal(events.at(-1)!.event, 'done')
    t.notOk(events.some((e) => JSON.stringify(e.data).includes('"decision"')))
    const chat = (events.at(-1)!.data as { chat_id: string }).chat_id
    const stored = (await admin(`/admin/chats/${chat}`)).json() as { messages: Message[] }
    t.match(stored.messages[1]!.decision, { route: 'faq' }, 'but it is stored')
  })

  t.test('a team member\'s answer has no decision', async (t) => {
    const answered = await app.inject({
      method: 'POST',
      url: `/admin/chats/${chatId}/answer`,
      headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId },
      payload: { content: 'Order 1234 is cancelled.', username: 'ana' }
    })
    t.equal(answered.statusCode, 201)
    t.notOk('decision' in answered.json())
    const last = (await transcript()).at(-1)!
    t.match(last, { content: 'Order 1234 is cancelled.', author: { kind: 'human', username: 'ana' } })
    t.notOk('decision' in last)
  })

  t.test('the JSON export carries the decisions, the CSV export their routes', async (t) => {
    const json = (await admin('/admin/chats/export', { format: 'json', consumer_id: 'shopper' })).json() as Array<{ messages: Message[] }>
    t.same(json[0]!.messages.filter((m) => m.role === 'assistant').map((m) => m.decision?.route), ['small_talk', 'faq', 'catalog', 'follow_up', 'handoff', undefined])
    const csv = await admin('/admin/chats/export', { format: 'csv', consumer_id: 'shopper' })
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>
    t.same(rows.map((r) => r.decision_route), ['', 'small_talk', '', 'faq', '', 'catalog', '', 'follow_up', '', 'handoff', ''])
  })

  t.test('a message stored before decisions were kept still reads', async (t) => {
    const old = randomUUID()
    await h.db.query(`INSERT INTO chats (project_id, id, consumer_id, message_count, created_at, last_updated_at)
                      VALUES ($1, $2, 'old-shopper', 2, now() - interval '1 day', now() - interval '1 day')`, [shop.projectId, old])
    await h.db.query(`INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at) VALUES
                      ($1, $2, 0, $3, 'user', 'hello', 'greeting', NULL, now() - interval '1 day'),
                      ($1, $2, 1, $4, 'assistant', 'Hello!', NULL, '[]', now() - interval '1 day')`, [shop.projectId, old, randomUUID(), randomUUID()])
    const res = await admin(`/admin/chats/${old}`)
    t.equal(res.statusCode, 200)
    const messages = (res.json() as { messages: Message[] }).messages
    t.match(messages, [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'Hello!', author: { kind: 'assistant' } }])
    t.notOk(messages.some((m) => 'decision' in m))
    t.equal((await get(app, shop.key, '/readConversation', { chat_id: old })).statusCode, 200)
  })

  t.test('a decision belongs to an assistant message only', async (t) => {
    await t.rejects(h.db.query(`INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, created_at, decision)
                                VALUES ($1, $2, 99, 'x', 'user', 'hi', 'greeting', now(), '{}')`, [shop.projectId, chatId]), /messages_decision_is_assistant/)
  })

  t.test('a follow-up worded as a question is labelled question, whatever the classifier made of it', async (t) => {
    // The classifier labels these two short follow-ups `other` (0.91 and 0.66 in its own words);
    // the turn answers from the items before, so it is a question about them.
    const { chat_id: followUp } = await say('do you have waterproof hiking boots under $150?')
    for (const message of ['what colour is the first one?', 'what colour is it?']) {
      const res = await post(app, shop.key, '/newUserMessage', { user_message: message, chat_id: followUp })
      t.equal(res.statusCode, 200, message)
      t.equal((res.json() as { classification: string }).classification, 'question', message)
    }
    const stored = (await admin(`/admin/chats/${followUp}`)).json() as { messages: Message[] }
    t.same(stored.messages.filter((m) => m.role === 'assistant').slice(1).map((m) => m.decision?.route), ['follow_up', 'follow_up'], 'both answered from the items before')
  })

  t.test('a model\'s reply is stored with the route "model" and the sources it cited', async (t) => {
    const fake = await startFakeOpenAi(t)
    const withModel = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, serviceToken: TOKEN },
      { model: openAiChatModel({ baseUrl: fake.baseUrl, model: 'fake', timeoutMs: 5000, retries: 0 }) })
    const found = (messages: ChatMessage[]) => (JSON.parse(String(messages.findLast((m) => m.role === 'tool')!.content)) as { items: Array<{ id: string }> }).items[0]!.id
    // A round of tool calls (the catalog searched for tents), then the reply citing the first tent.
    fake.script({ toolCalls: [{ name: 'search_catalog', arguments: { query: 'tent' } }] }, { text: (messages) => `This one may suit you [${found(messages)}].` })
    const res = await post(withModel, shop.key, '/newUserMessage', { user_message: 'any tents?', consumer_id: 'model-shopper' })
    const turn = res.json() as { chat_id: string, citations: Array<{ source: string, reference: string, confidence: number }> }
    t.equal(turn.citations.length, 1, res.body)
    const stored = (await admin(`/admin/chats/${turn.chat_id}`)).json() as { messages: Message[] }
    t.same(stored.messages[1]!.decision, { route: 'model', evidence: [{ source: 'catalog', reference: turn.citations[0]!.reference, score: turn.citations[0]!.confidence, used: true }] })
  })
})
