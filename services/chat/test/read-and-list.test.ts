import t from 'tap'
import { createPool } from '@chatsearch/shell'
import { chatsJson } from '../src/routes/list-chats.js'
import { readInBatches } from '../src/store/cursor.js'
import { consumerChatsQuery, projectChatsQuery, type ChatRow } from '../src/store/chats.js'
import { harness, get, post } from './helpers.js'

t.test('reading and listing', async (t) => {
  const h = await harness(t)
  const app = await h.app()
  const shop = await h.tenant()
  const other = await h.tenant('other')

  const start = async (key: string, consumer: string, text = 'hello') =>
    (await post(app, key, '/newUserMessage', { user_message: text, consumer_id: consumer })).json().chat_id as string

  const a1 = await start(shop.key, 'ann')
  const a2 = await start(shop.key, 'ann')
  const b1 = await start(shop.key, 'ben')
  const theirs = await start(other.key, 'ann')
  // Continuing a1 makes it ann's most recently updated chat.
  await post(app, shop.key, '/newUserMessage', { user_message: 'thanks, that helped a lot', chat_id: a1 })

  t.test('readConversation', async (t) => {
    const ok = await get(app, shop.key, '/readConversation', { chat_id: a1 })
    t.equal(ok.statusCode, 200)
    t.equal(ok.json().length, 4)

    const missing = await get(app, shop.key, '/readConversation')
    t.equal(missing.statusCode, 400)
    t.same(missing.json(), { statusCode: 400, error: 'Missing Parameters', code: 'missing_parameters', message: missing.json().message })
    t.match(missing.json().message, /chat_id/)

    const empty = await get(app, shop.key, '/readConversation', { chat_id: '' })
    t.equal(empty.statusCode, 400)
    t.equal(empty.json().code, 'missing_parameters')

    const unknown = await get(app, shop.key, '/readConversation', { chat_id: 'f0f0f0f0-0000-4000-8000-000000000000' })
    t.equal(unknown.statusCode, 404)
    t.equal(unknown.json().error, 'Chat Not Found')

    const foreign = await get(app, shop.key, '/readConversation', { chat_id: theirs })
    t.equal(foreign.statusCode, 404, 'another project\'s chat looks missing')
    t.same(foreign.json().code, unknown.json().code)
  })

  t.test('listAllProjectChats lists only the project\'s chats, metadata only, newest first', async (t) => {
    const res = await get(app, shop.key, '/listAllProjectChats')
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /application\/json/)
    const { chats } = res.json()
    t.same(Object.keys(res.json()), ['chats'])
    t.same(chats.map((c: { id: string }) => c.id), [a1, b1, a2])
    for (const c of chats) t.same(Object.keys(c).sort(), ['consumer_id', 'created_at', 'id', 'last_updated_at', 'needs_human'])
    t.notOk(chats.some((c: { id: string }) => c.id === theirs))
    const a1Summary = chats[0]
    t.ok(a1Summary.last_updated_at > a1Summary.created_at, 'a continued chat was updated after creation')

    const none = await h.tenant('empty')
    t.same((await get(app, none.key, '/listAllProjectChats')).json(), { chats: [] })
  })

  t.test('listAllProjectChats streams many chats', async (t) => {
    const big = await h.tenant('big')
    await h.db.query(`INSERT INTO chats (project_id, id, consumer_id, created_at, last_updated_at)
      SELECT $1, 'chat-' || g, 'c' || (g % 50), now(), now() - g * interval '1 second' FROM generate_series(1, 2500) g`, [big.projectId])
    const { chats } = (await get(app, big.key, '/listAllProjectChats')).json()
    t.equal(chats.length, 2500)
    t.equal(chats[0].id, 'chat-1')
    t.equal(chats[2499].id, 'chat-2500')
  })

  t.test('a listing abandoned after its first chunk gives its connection back', async (t) => {
    const pool = createPool(h.databaseUrl, 1)
    t.teardown(() => pool.end())
    const big = (await h.db.query("SELECT project_id FROM chats WHERE id = 'chat-1'")).rows[0].project_id as string
    const batches = await readInBatches<ChatRow>(pool, projectChatsQuery(big))
    t.equal(pool.totalCount - pool.idleCount, 1, '2,500 chats: streamed through a cursor on its own connection')
    const body = chatsJson(batches, () => '')
    await body.next()
    await body.return(undefined)
    t.equal(pool.totalCount - pool.idleCount, 0, 'released when the stream stops early')
    const small = await readInBatches<ChatRow>(pool, consumerChatsQuery(big, 'c1'))
    t.equal(small.first.length, 50)
    t.equal(pool.totalCount - pool.idleCount, 0, 'one batch: no connection held at all')
  })

  t.test('listAllProjectConsumerChats', async (t) => {
    const res = await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'ann' })
    t.equal(res.statusCode, 200)
    const body = res.json()
    t.equal(body.consumer_id, 'ann')
    t.equal(body.total_count, 2)
    t.same(body.chats.map((c: { id: string }) => c.id), [a1, a2])
    t.ok(body.chats.every((c: { consumer_id: string }) => c.consumer_id === 'ann'))

    const nobody = (await get(app, shop.key, '/listAllProjectConsumerChats', { consumer_id: 'zed' })).json()
    t.same(nobody, { chats: [], consumer_id: 'zed', total_count: 0 })

    const missing = await get(app, shop.key, '/listAllProjectConsumerChats')
    t.equal(missing.statusCode, 400)
    t.equal(missing.json().code, 'missing_parameters')
  })

  t.test('latestConsumerChatId', async (t) => {
    const res = (await get(app, shop.key, '/latestConsumerChatId', { consumer_id: 'ann' })).json()
    t.equal(res.chat_id, a1)
    t.type(res.last_updated_at, 'string')
    t.notOk('message' in res)

    await post(app, shop.key, '/newUserMessage', { user_message: 'one more thing', chat_id: a2 })
    t.equal((await get(app, shop.key, '/latestConsumerChatId', { consumer_id: 'ann' })).json().chat_id, a2)

    const none = (await get(app, shop.key, '/latestConsumerChatId', { consumer_id: 'zed' })).json()
    t.equal(none.chat_id, null)
    t.type(none.message, 'string')
    t.notOk('last_updated_at' in none)

    t.equal((await get(app, other.key, '/latestConsumerChatId', { consumer_id: 'ann' })).json().chat_id, theirs,
      'the same consumer id in another project is another consumer')
    t.equal((await get(app, shop.key, '/latestConsumerChatId')).statusCode, 400)
  })
})
