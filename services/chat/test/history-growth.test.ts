import t from 'tap'
import type pg from 'pg'
import { classifications } from '@chatsearch/contracts'
import { chatAnalytics } from '../src/store/analytics.js'
import { adminChatPage } from '../src/store/admin-chats.js'
import { harness } from './helpers.js'
import { rowsRead, statementsOf } from './support/plans.js'

const DAY = 86_400_000
const HISTORY_DAYS = 180
/** rowsRead can be a few percent off (EXPLAIN rounds the rows filtered out per loop). */
const ROUNDING = 1.1

/**
 * `chats` chats spread evenly over the last HISTORY_DAYS days, 2 to 12 messages each, 30 s apart,
 * written in the order they were sent (as the service writes them), with the invariants the service
 * keeps: last_updated_at is the last message's time, the user's messages carry a class, the
 * assistant's citations. One user message in `feedbackEvery` is feedback; a few turns are handed
 * off, a few replies rated up or down, a few chats are test chats or wait for a person.
 */
async function seedHistory (db: pg.Pool, projectId: string, chats: number, feedbackEvery: number) {
  await db.query(`INSERT INTO chats (project_id, id, consumer_id, is_test, message_count, created_at, last_updated_at, needs_human)
    SELECT $1, md5($1 || g), 'consumer-' || g % 400, g % 97 = 0, n, at, at + (n - 1) * interval '30 seconds', g % 53 = 0
    FROM (SELECT g, 2 * (1 + g % 6) AS n, now() - $3 * interval '1 day' + (g - 1) * (($3 * interval '1 day' - interval '2 hours') / $2) AS at
          FROM generate_series(1, $2) g) s`, [projectId, chats, HISTORY_DAYS])
  await db.query(`INSERT INTO messages (project_id, chat_id, seq, id, role, content, classification, citations, created_at, handoff, feedback_rating, feedback_at)
    SELECT c.project_id, c.id, s, c.id || ':' || s, CASE WHEN s % 2 = 0 THEN 'user' ELSE 'assistant' END, 'Do you have these boots in 42?',
           CASE WHEN s % 2 = 1 THEN NULL WHEN (c.h + s) % $2 = 0 THEN 'feedback'
                ELSE (ARRAY['question', 'question', 'request', 'greeting', 'complaint', 'other'])[1 + (c.h + s) % 6] END,
           CASE WHEN s % 2 = 1 THEN '[]'::jsonb END,
           c.created_at + s * interval '30 seconds', s % 2 = 1 AND (c.h + s) % 23 = 0,
           CASE WHEN s % 2 = 1 AND (c.h + s) % 7 = 0 THEN (ARRAY['up', 'down'])[1 + c.h % 2] END,
           CASE WHEN s % 2 = 1 AND (c.h + s) % 7 = 0 THEN c.created_at + s * interval '30 seconds' + interval '1 minute' END
    FROM (SELECT *, abs(hashtext(id)) AS h FROM chats WHERE project_id = $1) c, generate_series(0, c.message_count - 1) s
    ORDER BY c.created_at + s * interval '30 seconds'`, [projectId, feedbackEvery])
}

interface ChatRow { id: string, is_test: boolean, needs_human: boolean, created_at: Date, last_updated_at: Date }
interface MessageRow { chat_id: string, role: string, classification: string | null, created_at: Date, handoff: boolean, feedback_rating: string | null }

t.test('reads of the console and its analytics follow what they return, not the history stored', async (t) => {
  const h = await harness(t)
  const shop = await h.tenant('shop')
  const neighbour = await h.tenant('a busier shop')
  // The shop's history, and three times as much of another project's, where feedback is common.
  await seedHistory(h.db, shop.projectId, 3000, 50)
  await seedHistory(h.db, neighbour.projectId, 9000, 3)
  await h.db.query('VACUUM ANALYZE chats, messages')

  const { rows: chats } = await h.db.query<ChatRow>('SELECT id, is_test, needs_human, created_at, last_updated_at FROM chats WHERE project_id = $1', [shop.projectId])
  const { rows: messages } = await h.db.query<MessageRow>('SELECT chat_id, role, classification, created_at, handoff, feedback_rating FROM messages WHERE project_id = $1', [shop.projectId])
  const testChats = new Set(chats.filter((c) => c.is_test).map((c) => c.id))
  const { rows: [total] } = await h.db.query<{ messages: number }>('SELECT count(*)::int AS messages FROM messages')

  for (const days of [7, 30]) {
    const since = new Date(`${new Date(Date.now() - (days - 1) * DAY).toISOString().slice(0, 10)}T00:00:00Z`)
    const inRange = messages.filter((m) => m.created_at >= since)
    const activeChats = chats.filter((c) => c.last_updated_at >= since)
    // What a plan that starts from the chats reads: all the messages of the chats active in the range.
    const active = new Set(activeChats.map((c) => c.id))
    const ofActiveChats = messages.filter((m) => active.has(m.chat_id)).length

    t.test(`the analytics of the last ${days} days read the messages and chats of those days`, async (t) => {
      t.ok(ofActiveChats * 10 < total!.messages, 'the range is a small part of what is stored')
      for (const statement of await statementsOf((db) => chatAnalytics(db, shop.projectId, days))) {
        const name = statement.text.replace(/\s+/g, ' ').slice(0, 60)
        const read = { messages: await rowsRead(h.db, statement, 'messages'), chats: await rowsRead(h.db, statement, 'chats') }
        t.ok(read.messages <= ofActiveChats * ROUNDING, `${name}…: read ${read.messages} messages; the range has ${inRange.length}, its chats ${ofActiveChats}`)
        // A chat is read once as a chat active in the range, or once per message of it (a join either way).
        t.ok(read.chats <= (activeChats.length + inRange.length) * ROUNDING, `${name}…: read ${read.chats} chats; ${activeChats.length} were active in the range`)
      }
    })

    t.test(`the analytics of the last ${days} days count what a reading of every row counts`, async (t) => {
      const report = await chatAnalytics(h.db, shop.projectId, days)
      const started = chats.filter((c) => !c.is_test && c.created_at >= since)
      const sent = inRange.filter((m) => !testChats.has(m.chat_id))
      const day = (d: Date) => d.toISOString().slice(0, 10)
      const perDay = new Map(report.chats_per_day.map((d) => [d.day, { chats: 0, messages: 0 }]))
      for (const c of started) perDay.get(day(c.created_at))!.chats++
      for (const m of sent) perDay.get(day(m.created_at))!.messages++
      t.same(report.chats_per_day, [...perDay].map(([d, counts]) => ({ day: d, ...counts })))
      t.same(report.classifications, Object.fromEntries(classifications.map((k) => [k, sent.filter((m) => m.classification === k).length])))
      const handedOff = new Set(messages.filter((m) => m.handoff).map((m) => m.chat_id))
      t.same(report.handoff.chats, started.length)
      t.same(report.handoff.handed_off, started.filter((c) => handedOff.has(c.id)).length)
      t.ok(report.handoff.handed_off > 0, 'the range has handed-off chats')
      const ratedAs = (rating: string) => sent.filter((m) => m.feedback_rating === rating).length
      t.same(report.feedback, { up: ratedAs('up'), down: ratedAs('down'), ratio: ratedAs('up') / (ratedAs('up') + ratedAs('down')) })
      const unresolved = new Set(messages.filter((m) => m.created_at >= since && (m.handoff || m.feedback_rating === 'down')).map((m) => m.chat_id))
      t.same(report.resolution.resolved, started.filter((c) => !unresolved.has(c.id)).length)
      t.same(report.team_answer.handoffs, sent.filter((m) => m.handoff).length)
      t.ok(report.feedback.up > 0 && report.feedback.down > 0, 'the range has replies rated up and down')
    })
  }

  t.test('the console\'s class filter reads the project\'s messages of that class, not every project\'s', async (t) => {
    const limit = 51
    const [statement] = await statementsOf((db) => adminChatPage(db, shop.projectId, { classification: 'feedback' }, limit))
    const feedback = messages.filter((m) => m.classification === 'feedback')
    // The page's own columns read each listed chat's messages (its classes, its last message).
    const pageMessages = limit * 12 * 2
    const read = await rowsRead(h.db, statement!, 'messages')
    t.ok(read <= (feedback.length + pageMessages) * ROUNDING, `read ${read} messages; the project has ${feedback.length} feedback messages`)

    const withFeedback = new Set(feedback.map((m) => m.chat_id))
    const expected = chats.filter((c) => withFeedback.has(c.id))
      .sort((a, b) => Number(b.needs_human) - Number(a.needs_human) || b.last_updated_at.getTime() - a.last_updated_at.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, limit).map((c) => c.id)
    t.same((await adminChatPage(h.db, shop.projectId, { classification: 'feedback' }, limit)).map((r) => r.id), expected,
      'the chats with a feedback message, waiting for a person first, then the most recently updated')
  })
})
