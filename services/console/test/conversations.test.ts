import t from 'tap'
import { harness, signIn } from './helpers.js'
import { services } from './support/stack.js'

t.test('conversations and analytics through the chat and search admin routes', async (t) => {
  const h = await harness(t)
  const { searchUrl, chatUrl } = await services(t, h)
  await h.user('alice')
  const app = await h.app({ searchUrl, chatUrl })
  const alice = await signIn(app, 'alice')
  const projectId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Shop' } })).json().id as string
  const otherId = (await alice.request({ method: 'POST', url: '/api/projects', payload: { name: 'Other' } })).json().id as string
  const base = `/api/projects/${projectId}`
  const keyOf = async (project: string) =>
    (await alice.request({ method: 'POST', url: `/api/projects/${project}/credentials`, payload: { service: 'chat' } })).json().key as string
  const say = async (key: string, message: string, consumer: string) => await (await fetch(`${chatUrl}/newUserMessage`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ user_message: message, consumer_id: consumer })
  })).json() as { chat_id: string, handoff: boolean }

  const key = await keyOf(projectId)
  const hello = await say(key, 'Hello!', 'shopper-1')
  const refund = await say(key, 'I want a refund for my last order, it arrived broken', 'shopper-2')
  t.equal(refund.handoff, true, 'the refund is handed off')
  const elsewhere = await say(await keyOf(otherId), 'Hello from the other shop', 'shopper-3')

  const listed = await alice.request({ method: 'GET', url: `${base}/chats?limit=10` })
  t.equal(listed.statusCode, 200, listed.body)
  const chats = (listed.json() as { chats: Array<{ chat_id: string, needs_human: boolean }>, next_cursor: string | null }).chats
  t.same(chats.map((c) => c.chat_id), [refund.chat_id, hello.chat_id], 'the chat waiting for a person first; only this project\'s chats')
  const waiting = (await alice.request({ method: 'GET', url: `${base}/chats?needs_human=true` })).json().chats as Array<{ chat_id: string }>
  t.same(waiting.map((c) => c.chat_id), [refund.chat_id], 'filters pass through')
  t.equal((await alice.request({ method: 'GET', url: `${base}/chats?limit=0` })).statusCode, 400, "the chat service's 400 passes through")

  const detail = await alice.request({ method: 'GET', url: `${base}/chats/${refund.chat_id}` })
  t.equal(detail.statusCode, 200)
  t.equal(detail.json().messages.length, 2)
  t.match(detail.json().messages[1].decision, { route: 'handoff', handoff_reason: String, evidence: Array }, 'the assistant\'s decision passes through to the console')
  const foreign = await alice.request({ method: 'GET', url: `${base}/chats/${elsewhere.chat_id}` })
  t.equal(foreign.statusCode, 404, "another project's chat through this project: 404, as the chat service says")
  t.match(foreign.json(), { statusCode: 404, error: 'Chat Not Found', code: 'chat_not_found' })

  const answered = await alice.request({ method: 'POST', url: `${base}/chats/${refund.chat_id}/answer`, payload: { content: 'Sorry about that: a refund is on its way.' } })
  t.equal(answered.statusCode, 201, answered.body)
  t.match(answered.json(), { role: 'assistant', author: { kind: 'human', username: 'alice' } }, 'answered in the signed-in user\'s name')
  t.equal((await alice.request({ method: 'GET', url: `${base}/chats/${refund.chat_id}` })).json().chat.needs_human, false)
  t.equal((await alice.request({ method: 'POST', url: `${base}/chats/${refund.chat_id}/answer`, payload: { content: 'x', username: 'mallory' } })).statusCode, 400, 'no answering in another name')

  const csv = await alice.request({ method: 'GET', url: `${base}/chats/export?format=csv` })
  t.equal(csv.statusCode, 200)
  t.match(String(csv.headers['content-type']), /^text\/csv/)
  t.match(String(csv.headers['content-disposition']), /^attachment; filename="chats-\d{4}-\d{2}-\d{2}\.csv"$/)
  t.match(csv.body, /^chat_id,consumer_id,seq,role,author,classification,content,citations,created_at,decision_route,feedback_rating,feedback_comment\r\n/)
  t.match(csv.body, 'human:alice')
  const json = await alice.request({ method: 'GET', url: `${base}/chats/export?format=json` })
  t.same((json.json() as Array<{ chat: { chat_id: string } }>).map((e) => e.chat.chat_id).sort(), [hello.chat_id, refund.chat_id].sort())

  const deleted = await alice.request({ method: 'DELETE', url: `${base}/chats/${hello.chat_id}` })
  t.equal(deleted.statusCode, 200)
  t.same(deleted.json(), { deleted: true })
  t.equal((await alice.request({ method: 'GET', url: `${base}/chats/${hello.chat_id}` })).statusCode, 404)

  // A shop's visitor searches with a search token; the console's own search (the service token) and
  // the chat's retrieval are not counted.
  const token = (await alice.request({ method: 'POST', url: `${base}/credentials`, payload: { service: 'search' } })).json().key as string
  await fetch(`${searchUrl}/search`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ search_term: 'tent' }) })
  await alice.request({ method: 'POST', url: `${base}/search`, payload: { search_term: 'console browsing' } })
  const analytics = await alice.request({ method: 'GET', url: `${base}/analytics?days=7` })
  t.equal(analytics.statusCode, 200, analytics.body)
  const { chat, search } = analytics.json() as { chat: { days: number, chats_per_day: unknown[], handoff: { chats: number, handed_off: number } }, search: { days: number, searches_per_day: Array<{ searches: number }>, top_queries: Array<{ query: string }> } }
  t.equal(chat.days, 7)
  t.equal(chat.chats_per_day.length, 7, 'every day of the range')
  t.match(chat.handoff, { chats: 1, handed_off: 1 }, 'the deleted chat is gone; the refund was handed off')
  t.equal(search.searches_per_day.length, 7)
  t.same(search.top_queries.map((q) => q.query), ['tent'])
  const bad = await alice.request({ method: 'GET', url: `${base}/analytics?days=0` })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'invalid_request')
})
