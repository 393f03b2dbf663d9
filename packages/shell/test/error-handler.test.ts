import t from 'tap'
import type { InjectOptions } from 'fastify'
import { Type } from 'typebox'
import { createServer } from '../src/server.js'
import { ApiError } from '../src/errors.js'

async function app () {
  const server = createServer({ name: 'test', logLevel: 'silent', bodyLimit: 1024 })
  server.post('/things', {
    schema: {
      body: Type.Object({
        name: Type.String({ minLength: 1 }),
        count: Type.Optional(Type.Integer()),
        size: Type.Optional(Type.Union([Type.Literal('small'), Type.Literal('large')]))
      }, { additionalProperties: false })
    }
  }, async () => ({ ok: true }))
  server.get('/find', { schema: { querystring: Type.Object({ id: Type.String({ minLength: 1 }) }) } }, async () => { throw new ApiError('chat_not_found', 'no chat x') })
  server.get('/boom', async () => { throw new Error('secret internal detail: password=hunter2') })
  server.get('/db-down', async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }) })
  await server.ready()
  return server
}

const bodyKeys = ['code', 'error', 'message', 'statusCode']

t.test('every failure leaves with the documented body', async (t) => {
  const server = await app()
  t.teardown(() => server.close())
  const cases: Array<[string, InjectOptions, number, string]> = [
    ['missing field', { method: 'POST', url: '/things', payload: {} }, 400, 'missing_parameters'],
    ['wrong type, no coercion', { method: 'POST', url: '/things', payload: { name: 'a', count: '3' } }, 400, 'invalid_request'],
    ['unknown field', { method: 'POST', url: '/things', payload: { name: 'a', extra: true } }, 400, 'invalid_request'],
    ['bad JSON', { method: 'POST', url: '/things', payload: '{"name":', headers: { 'content-type': 'application/json' } }, 400, 'invalid_request'],
    ['not JSON', { method: 'POST', url: '/things', payload: 'name=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'unsupported_media_type'],
    ['too large', { method: 'POST', url: '/things', payload: { name: 'a'.repeat(2000) } }, 413, 'payload_too_large'],
    ['NUL character', { method: 'POST', url: '/things', payload: { name: 'a\u0000' } }, 400, 'invalid_request'],
    ['missing query parameter', { method: 'GET', url: '/find' }, 400, 'missing_parameters'],
    ['API error', { method: 'GET', url: '/find?id=x' }, 404, 'chat_not_found'],
    ['unknown route', { method: 'GET', url: '/nowhere' }, 404, 'not_found'],
    ['bug', { method: 'GET', url: '/boom' }, 500, 'internal_error'],
    ['database down', { method: 'GET', url: '/db-down' }, 503, 'service_unavailable']
  ]
  for (const [name, request, status, code] of cases) {
    const res = await server.inject(request)
    t.equal(res.statusCode, status, name)
    t.same(Object.keys(res.json()).sort(), bodyKeys, name)
    t.equal(res.json().code, code, name)
    t.equal(res.json().statusCode, status, name)
  }
  const bug = await server.inject('/boom')
  t.notMatch(bug.body, /hunter2|secret|stack/, '5xx never leaks internals')
  t.match((await server.inject({ method: 'POST', url: '/things', payload: {} })).json().message, /name/, 'names the missing field')
  const size = await server.inject({ method: 'POST', url: '/things', payload: { name: 'a', size: 'huge' } })
  t.same([size.statusCode, size.json().code, size.json().message], [400, 'invalid_request', 'size must be one of "small", "large"'], 'names the values a union of literals allows')
})

t.test('request ids: a sane one from the gateway is kept, anything else replaced', async (t) => {
  const server = await app()
  t.teardown(() => server.close())
  t.equal((await server.inject({ url: '/nowhere', headers: { 'x-request-id': 'gw-123' } })).headers['x-request-id'], 'gw-123')
  const replaced = (await server.inject({ url: '/nowhere', headers: { 'x-request-id': 'bad id with spaces' } })).headers['x-request-id']
  t.match(replaced, /^[0-9a-f-]{36}$/)
})
