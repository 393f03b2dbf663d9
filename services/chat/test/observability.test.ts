import t from 'tap'
import { call, get, harness, post } from './helpers.js'
import { metricSample } from '@chatsearch/testkit'
import { searchStack, TOKEN } from './support/search-stack.js'

interface LogLine { reqId?: string, msg: string, req?: { url?: string }, [field: string]: unknown }

/** A log destination that keeps every line. */
function capture () {
  const lines: string[] = []
  return {
    stream: { write: (line: string) => { lines.push(line) } },
    text: () => lines.join(''),
    entries: () => lines.map((l) => JSON.parse(l) as LogLine)
  }
}

const h = await harness(t)

t.test('one request id follows a turn from the chat service to the search service; no credential is logged', async (t) => {
  const shop = await h.tenant()
  const searchLog = capture()
  const chatLog = capture()
  const stack = await searchStack(t, h, shop, { logLevel: 'trace', logStream: searchLog.stream })
  const app = await h.app({ search: { url: stack.url, serviceToken: TOKEN, timeoutMs: 10_000 }, logLevel: 'trace', logStream: chatLog.stream })

  const res = await call(app, shop.key, {
    method: 'POST', url: '/newUserMessage', headers: { 'x-request-id': 'gw-turn-0001' }, payload: { user_message: 'do you have hiking boots?', consumer_id: 'c1' }
  })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['x-request-id'], 'gw-turn-0001', 'echoed to the client')
  t.ok(res.json().citations.length > 0, 'the search service was asked')
  const searchCalls = searchLog.entries().filter((e) => e.reqId === 'gw-turn-0001' && e.msg === 'incoming request').map((e) => e.req?.url)
  t.ok(searchCalls.includes('/search'), `the search service saw the same id (${searchCalls.join(', ')})`)

  const streamed = await call(app, shop.key, {
    method: 'POST',
    url: '/newUserMessage',
    headers: { 'x-request-id': 'gw-turn-0002', accept: 'text/event-stream' },
    payload: { user_message: 'any tents?', consumer_id: 'c2' }
  })
  t.match(streamed.body, /event: done/)
  t.equal(streamed.headers['x-request-id'], 'gw-turn-0002', 'a streamed reply carries it too')
  t.ok(searchLog.entries().some((e) => e.reqId === 'gw-turn-0002' && e.req?.url === '/search'), 'and passes it on')

  const refused = await call(app, `${shop.key}x`, { method: 'POST', url: '/newUserMessage', headers: { 'x-request-id': 'gw-401' }, payload: { user_message: 'hi', consumer_id: 'c3' } })
  t.equal(refused.statusCode, 401)
  t.equal(refused.headers['x-request-id'], 'gw-401')
  t.ok(chatLog.entries().some((e) => e.reqId === 'gw-401' && e.msg === 'request rejected'))

  for (const [name, log] of [['chat', chatLog], ['search', searchLog]] as const) {
    t.notOk(log.text().includes(shop.key.slice(9)), `the project key is not in the ${name} log`)
    t.notOk(log.text().includes(TOKEN), `the service token is not in the ${name} log`)
  }
})

t.test('a consumer_id is never logged, in request URLs or rejections, nor made a metric label; chat ids are', async (t) => {
  const shop = await h.tenant()
  const log = capture()
  const app = await h.app({ logLevel: 'trace', logStream: log.stream })
  const consumer = 'alice-7c21@example.org'
  const chatId = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: consumer })).json().chat_id
  const other = (await post(app, shop.key, '/newUserMessage', { user_message: 'hello', consumer_id: 'bob' })).json().chat_id
  t.equal((await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: consumer })).json().total_count, 1)
  t.equal((await get(app, shop.key, '/latestConsumerChatId', { consumer_id: consumer })).json().chat_id, chatId)
  const wrong = await post(app, shop.key, '/newUserMessage', { user_message: 'hi', chat_id: other, consumer_id: consumer })
  t.equal(wrong.json().code, 'chat_not_found', 'another consumer\'s chat')
  t.equal((await get(app, shop.key, '/readConversation', { chat_id: chatId })).statusCode, 200)

  const urls = log.entries().filter((e) => e.msg === 'incoming request').map((e) => e.req?.url)
  t.ok(urls.includes('/listAllProjectConsumerChats?consumer_id=[redacted]'), urls.join(' '))
  t.ok(urls.includes('/latestConsumerChatId?consumer_id=[redacted]'))
  t.ok(urls.includes(`/readConversation?chat_id=${chatId}`), 'a chat id is kept')
  t.ok(log.entries().some((e) => e.msg === 'request rejected' && e.code === 'chat_not_found'), 'the rejection is logged')
  t.notOk(log.text().includes('alice-7c21'), 'the consumer id is nowhere in the log')
  const metrics = (await app.inject('/metrics')).body
  t.equal(metricSample(metrics, 'http_requests_total', { route: '/listAllProjectConsumerChats', status: '200' }), 1)
  t.notOk(metrics.includes('alice-7c21'), 'nor in the metrics')
})
