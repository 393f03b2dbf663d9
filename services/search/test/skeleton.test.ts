import t from 'tap'
import { createPool } from '@chatsearch/shell'
import { testDatabase } from '@chatsearch/shell/testing'
import { createKey, createProject } from '@chatsearch/auth'
import { buildApp } from '../src/app.js'

t.test('search service skeleton', async (t) => {
  const databaseUrl = await testDatabase(t)
  const app = await buildApp({ databaseUrl, logLevel: 'silent', dbPoolSize: 4, authCacheTtlMs: 5000 })
  t.teardown(() => app.close())
  const db = createPool(databaseUrl, 2)
  t.teardown(() => db.end())
  const project = await createProject(db, 'shop')
  const searchKey = (await createKey(db, project.id, 'search', 'tester')).key
  const chatKey = (await createKey(db, project.id, 'chat', 'tester')).key
  const search = (key: string | undefined, payload: unknown) => app.inject({
    method: 'POST',
    url: '/search',
    payload: payload as object,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` }
  })

  t.test('health is public', async (t) => {
    t.same((await app.inject('/healthz')).json(), { status: 'ok', service: 'search' })
  })

  t.test('credentials are checked, and only search credentials open it', async (t) => {
    t.equal((await search(undefined, { search_term: 'boots' })).statusCode, 401)
    const wrong = await search(chatKey, { search_term: 'boots' })
    t.equal(wrong.statusCode, 401)
    t.match(wrong.json().message, /search credential/)
  })

  t.test('requests are validated against the contracts', async (t) => {
    const missing = await search(searchKey, {})
    t.equal(missing.statusCode, 400)
    t.equal(missing.json().code, 'missing_parameters')
    t.equal((await search(searchKey, { search_term: 'x', search_type: 'semantic' })).statusCode, 400)
    t.equal((await search(searchKey, { search_term: 'x', limit: 1001 })).statusCode, 400)
    t.equal((await search(searchKey, { search_term: 'x', semantic_ratio: 1.5 })).statusCode, 400)
    t.equal((await search(searchKey, { search_term: 'x'.repeat(1001) })).statusCode, 400)
  })

  t.test('a valid request is answered 501 until the engine lands, with the error body', async (t) => {
    const res = await search(searchKey, { search_term: 'boots', limit: 5 })
    t.equal(res.statusCode, 501)
    t.equal(res.json().code, 'not_implemented')
  })
})
