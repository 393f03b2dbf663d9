import t from 'tap'
import { generateKey, hashKey, keyHint, keyService, newId, randomBase62 } from '../src/credential.js'
import { TtlCache } from '../src/cache.js'

t.test('keys have the documented format and are unpredictable', async (t) => {
  const chat = generateKey('chat')
  const search = generateKey('search')
  t.match(chat, /^csk_chat_[0-9A-Za-z]{40}$/)
  t.match(search, /^csk_search_[0-9A-Za-z]{40}$/)
  t.equal(keyService(chat), 'chat')
  t.equal(keyService(search), 'search')
  const many = new Set(Array.from({ length: 1000 }, () => generateKey('chat')))
  t.equal(many.size, 1000)
  const chars = new Set(randomBase62(20_000))
  t.equal(chars.size, 62, 'every base62 character is used')
  t.match(newId('prj'), /^prj_[0-9A-Za-z]{20}$/)
})

t.test('anything else is not a key', async (t) => {
  for (const bad of ['', 'csk_chat_', 'csk_chat_short', 'csk_other_' + 'a'.repeat(40), 'csk_chat_' + 'a'.repeat(39) + '!', 'CSK_chat_' + 'a'.repeat(40), ' csk_chat_' + 'a'.repeat(40)]) {
    t.equal(keyService(bad), undefined, JSON.stringify(bad))
  }
})

t.test('only a hash and a hint are derived for storage', async (t) => {
  const key = generateKey('chat')
  t.equal(hashKey(key).length, 32)
  t.same(hashKey(key), hashKey(key))
  t.not(hashKey(key).toString('hex'), hashKey(generateKey('chat')).toString('hex'))
  t.equal(keyHint(key), `csk_chat_…${key.slice(-4)}`)
  t.notMatch(keyHint(key), key.slice(9, 30))
})

t.test('the cache bounds staleness, shares lookups and forgets failures', async (t) => {
  const cache = new TtlCache<number>(100, 3)
  let loads = 0
  const load = async () => ++loads
  const [a, b] = await Promise.all([cache.get('k', load, 0), cache.get('k', load, 0)])
  t.equal(a, 1)
  t.equal(b, 1, 'concurrent lookups share one load')
  t.equal(await cache.get('k', load, 99), 1)
  t.equal(await cache.get('k', load, 100), 2, 'reloaded once the ttl has passed')
  await t.rejects(cache.get('bad', async () => { throw new Error('db down') }, 0))
  t.equal(await cache.get('bad', async () => 7, 1), 7, 'a failure is not cached')
  for (const k of ['x', 'y', 'z', 'w']) await cache.get(k, load, 1)
  t.ok(cache.size <= 3, 'bounded size')
})
