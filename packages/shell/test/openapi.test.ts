import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { apiVersion, bodyErrors, errorBodySchema, errorResponses, idempotencyErrors, publicErrorResponses } from '@chatsearch/contracts'
import { ApiError, createServer, healthRoutes, idempotencyPlugin, openApiPlugin, rateLimitPlugin, redisPlugin, type OpenApiServer } from '../src/index.js'
import { openApiProblems, type OpenApiExpectations } from '@chatsearch/testkit/openapi-check'

const identify = (request: { headers: Record<string, unknown> }) => request.headers.authorization as string | undefined

/**
 * A bare app as the services build theirs: the shell's plugins, health routes, and `routes`
 * registered behind a stand-in credential check (`Authorization: Bearer good`).
 */
async function appWith (t: Test, routes: (api: FastifyInstance) => void, publicRoutes: (app: FastifyInstance) => void = () => {}, servers?: OpenApiServer[]) {
  const app = createServer({ name: 'test', logLevel: 'silent' })
  await app.register(redisPlugin, { url: undefined, name: 'test' })
  await app.register(rateLimitPlugin, { service: 'test', limits: { chat_read: 100, chat_write: 100 }, identify })
  await app.register(idempotencyPlugin, { service: 'test', identify })
  await app.register(openApiPlugin, {
    title: 'Test API',
    description: 'A bare app',
    version: apiVersion,
    tags: [{ name: 'things', description: 'Things of the project' }],
    ...(servers === undefined ? {} : { servers })
  })
  await app.register(healthRoutes, { service: 'test' })
  publicRoutes(app)
  await app.register(async (api) => {
    api.addHook('onRequest', async (request) => {
      if (request.headers.authorization !== 'Bearer good') throw new ApiError('unauthorized', 'send Bearer good')
    })
    routes(api)
  })
  await app.ready()
  t.teardown(() => app.close())
  return app
}

const Thing = Type.Object({ name: Type.String() }, { additionalProperties: false })
const none: OpenApiExpectations = { idempotent: [], streams: [] }

/** A complete read route and a complete write route that accepts Idempotency-Key and streams. */
function completeRoutes (api: FastifyInstance) {
  api.get('/things', {
    config: { rateLimit: 'chat_read' },
    schema: { operationId: 'listThings', tags: ['things'], summary: 'All things', response: { 200: Type.Array(Thing), ...errorResponses() } }
  }, async () => [{ name: 'a', secret: 'not sent' }])
  api.post('/things', {
    config: { rateLimit: 'chat_write', idempotency: { stream: true } },
    schema: {
      operationId: 'addThing',
      tags: ['things'],
      summary: 'Add a thing',
      body: Thing,
      response: {
        200: { description: 'The thing', content: { 'application/json': { schema: Thing }, 'text/event-stream': { schema: Type.Object({ event: Type.Literal('done'), data: Thing }) } } },
        ...errorResponses('missing_parameters', ...bodyErrors, ...idempotencyErrors)
      }
    }
  }, async (request) => ({ ...(request.body as object), secret: 'not sent' }))
}
const complete: OpenApiExpectations = { idempotent: ['POST /things'], streams: ['POST /things'] }

t.test('a complete document has no problems, and its routes behave as documented', async (t) => {
  const app = await appWith(t, completeRoutes)
  t.same(await openApiProblems(app, complete), [])

  const add = (await app.inject('/openapi.json')).json().paths['/things'].post
  t.same(add.parameters.map((p: { name: string }) => p.name), ['X-Request-Id', 'Idempotency-Key'], 'the shell\'s request headers')
  t.same(Object.keys(add.responses['200'].headers), ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Idempotent-Replayed'])
  t.same(Object.keys(add.responses['401'].headers), ['X-Request-Id'], 'a 401 is never counted against a rate limit')
  t.ok(add.responses['429'].headers['Retry-After'])

  const send = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/things', payload: { name: 'b' }, headers: { authorization: 'Bearer good', ...headers } })
  const sent = await send({})
  t.equal(sent.statusCode, 200)
  t.same(sent.json(), { name: 'b' }, 'the JSON body is serialised with its schema under per-content-type responses')
  t.equal(sent.headers['ratelimit-limit'], '100')
  const badKey = await send({ 'idempotency-key': 'has spaces' })
  t.equal(badKey.statusCode, 400)
  t.same(badKey.json(), {
    statusCode: 400,
    error: 'Bad Request',
    code: 'invalid_request',
    message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID'
  }, 'the validated header keeps the idempotency plugin\'s message')
  t.equal((await send({ 'idempotency-key': 'k-1' })).statusCode, 200)
  t.equal((await send({ 'idempotency-key': 'k-1' })).headers['idempotent-replayed'], 'true')
  t.same((await app.inject({ url: '/things', headers: { authorization: 'Bearer good', 'x-request-id': 'not a valid id' } })).json(), [{ name: 'a' }],
    'an unacceptable X-Request-Id is replaced, not refused')
})

t.test('a server named like a route (a gateway prefix) does not shorten its path', async (t) => {
  const app = await appWith(t, completeRoutes, undefined, [{ url: '/', description: 'direct' }, { url: '/things', description: 'through a gateway' }])
  t.same(await openApiProblems(app, complete), [])
  t.same(Object.keys((await app.inject('/openapi.json')).json().paths), ['/healthz', '/readyz', '/things'])
})

t.test('each omission is reported', async (t) => {
  const problemsOf = async (routes: (api: FastifyInstance) => void, expected = none, publicRoutes?: (app: FastifyInstance) => void) =>
    await openApiProblems(await appWith(t, routes, publicRoutes), expected)
  /** Each of `wanted` is among the problems (a string exactly, a RegExp by match). */
  const reports = (problems: string[], wanted: Array<string | RegExp>, name?: string) => {
    for (const w of wanted) t.ok(problems.some((p) => typeof w === 'string' ? p === w : w.test(p)), `${name ?? 'reported'}: ${String(w)}`, { problems })
  }

  reports(await problemsOf((api) => {
    api.get('/bare', async () => ({}))
  }), ['GET /bare: no operationId', 'GET /bare: no summary', 'GET /bare: no tags', /GET \/bare: every route: 400 must list invalid_request/])

  reports(await problemsOf((api) => {
    api.get('/t', { config: { rateLimit: 'chat_read' }, schema: { operationId: 'x', tags: ['stuff'], summary: 's', response: { 200: Thing, ...errorResponses() } } }, async () => ({}))
  }), ['GET /t: tag stuff is not declared (with a description) in the document\'s tags'])

  reports(await problemsOf((api) => {
    api.get('/t', { config: { rateLimit: 'chat_read' }, schema: { operationId: 'x', tags: ['things'], summary: 's', response: { 200: Thing, ...publicErrorResponses() } } }, async () => ({}))
  }), ['GET /t: behind a credential: 401 must list unauthorized', 'GET /t: behind a credential: 429 must list rate_limited, authentication_throttled'],
  'the 401 and 429 of a route behind the credential')

  reports(await problemsOf((api) => {
    api.get('/t', { schema: { operationId: 'x', tags: ['things'], summary: 's', response: { 200: Thing, ...errorResponses() } } }, async () => ({}))
  }), ['GET /t: 200 without the RateLimit-Limit header'], 'a route behind the credential without a rate limit class')

  reports(await problemsOf(completeRoutes, { idempotent: [], streams: ['POST /things'] }),
    ['POST /things: an Idempotency-Key request header, but it is not expected to accept one'])
  reports(await problemsOf(completeRoutes, { idempotent: ['POST /things', 'PUT /things'], streams: ['POST /things'] }),
    ['PUT /things is expected but not documented'])
  reports(await problemsOf(completeRoutes, { idempotent: ['POST /things'], streams: [] }),
    ['POST /things: 200 with text/event-stream content, but it is not expected to stream'])

  reports(await problemsOf((api) => {
    api.post('/t', { config: { rateLimit: 'chat_write' }, schema: { operationId: 'x', tags: ['things'], summary: 's', body: Thing, response: { 200: Thing, ...errorResponses() } } }, async () => ({}))
  }), ['POST /t: POST reads a body: 413 must list payload_too_large', 'POST /t: POST reads a body: 415 must list unsupported_media_type', 'POST /t: it takes required input: 400 must list missing_parameters'])

  reports(await problemsOf((api) => {
    api.get('/t', { config: { rateLimit: 'chat_read' }, schema: { operationId: 'x', tags: ['things'], summary: 's', response: { 200: Thing, ...errorResponses(...bodyErrors), 404: errorBodySchema(['unauthorized']) } } }, async () => ({}))
  }), ['GET /t: 404 lists unauthorized, whose status is 401', 'GET /t: 413, but GET requests have no body read', 'GET /t: 415, but GET requests have no body read'])

  reports(await problemsOf(() => {}, none, (app) => {
    app.get('/open', { schema: { operationId: 'x', tags: ['things'], summary: 's', response: { 200: Thing, ...publicErrorResponses(), 404: Thing } } }, async () => ({ name: 'a' }))
  }), ['GET /open: documented behind the bearer credential, but answered 200 without one', 'GET /open: 404: not the error body (lacks statusCode, error, code, message)'])
})
