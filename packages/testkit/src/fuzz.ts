import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { errorCatalog, errorCodes } from '@chatsearch/contracts'

// Property-based hostile clients for a service's test suite: requests built from the service's own
// OpenAPI document (every route, its fields and parameters), filled with values chosen to break
// things, sent through `inject`. Used by each service's fuzz test; nothing in the services imports it.

type Schema = { type?: string | string[], properties?: Record<string, Schema>, items?: Schema, enum?: unknown[], anyOf?: Schema[] }
interface Operation {
  method: string
  path: string
  query: Record<string, Schema>
  pathParams: string[]
  body: Schema | undefined
}

/** Strings that have broken search engines, parsers and databases before. */
const nasty = [
  '', ' ', '   ', '\u0000', 'a\u0000b', '🎧', '👩‍👩‍👧‍👦', 'X5', '4K', '?!', '...', '"', '""', '\\', '%', '%00', '%zz', '*', '-', '--',
  'NOT', 'AND', 'OR', 'a OR b', '(laptop', 'laptop)', 'usb-c', 'c++', '50%', 'brand:x', "' OR 1=1 --", '; DROP TABLE chats; --',
  '../../etc/passwd', '..%2F..%2Fkeys', '<script>alert(1)</script>', 'e\u0301', '\uFEFF', '\u202E', '\uD800', 'null', 'undefined',
  'NaN', 'Infinity', '-0', '1e309', '0x10', '__proto__', 'constructor', 'toString', 'ä'.repeat(300), 'w '.repeat(600)
]

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nasty) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 990, maxLength: 1010 }) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(8001), 'x'.repeat(20_000)) }
)

const number = fc.oneof(
  fc.integer(), fc.integer({ min: -2, max: 1100 }), fc.double(),
  fc.constantFrom(0, -0, -1, 0.5, 1e308, -1e308, 2 ** 53, 10_001, 9999, 1000, 1001, 100, 101)
)

const anything: fc.Arbitrary<unknown> = fc.oneof(
  text, number, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }), fc.array(text, { maxLength: 5 }),
  fc.constantFrom({}, [], [[]], { __proto__: { admin: true } }, JSON.parse('{"__proto__":{"x":1}}'))
)

/** Filter expressions built from the language's own tokens, mostly malformed. */
export const filterExpression = fc.array(fc.constantFrom(
  'price', 'brand', 'category', 'in_stock', 'rating', 'tags', 'nope', 'a.b.c', '=', '!=', '>', '>=', '<', '<=', 'TO', 'EXISTS', 'IS NULL',
  'IS EMPTY', 'IN', '[', ']', ',', 'NOT', 'AND', 'OR', '(', ')', 'STARTS WITH', 'CONTAINS', '10', '-1', '1e999', 'true', '"x"', "'y'",
  '"unterminated', '\\', '🎧', 'null'
), { maxLength: 14 }).map((tokens) => tokens.join(' '))

/** A generated value as request text: a string as it is, anything else as its JSON. */
export const asText = (value: unknown): string => typeof value === 'string' ? value : JSON.stringify(value) ?? ''

function valueFor (schema: Schema | undefined, name: string, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const own = fields[name]
  const types = [schema?.type ?? schema?.anyOf?.map((s) => s.type)].flat().filter((t) => typeof t === 'string')
  const typed: Array<fc.Arbitrary<unknown>> = []
  if (own !== undefined) typed.push(own)
  if (schema?.enum !== undefined) typed.push(fc.constantFrom(...schema.enum))
  if (types.includes('string')) typed.push(text)
  if (types.includes('integer') || types.includes('number')) typed.push(number)
  if (types.includes('boolean')) typed.push(fc.boolean())
  if (types.includes('array')) typed.push(fc.array(valueFor(schema?.items, `${name}[]`, fields), { maxLength: 6 }))
  if (types.includes('object') && schema?.properties !== undefined) typed.push(objectFor(schema, fields))
  // Mostly well-typed values, so requests get past validation into the service; sometimes anything.
  return typed.length === 0 ? anything : fc.oneof({ weight: 4, arbitrary: fc.oneof(...typed) }, { weight: 1, arbitrary: anything })
}

function objectFor (schema: Schema, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, property] of Object.entries(schema.properties ?? {})) shape[name] = valueFor(property, name, fields)
  const extra = fc.dictionary(fc.constantFrom('extra', '__proto__', 'constructor', 'id', ''), anything, { maxKeys: 1 })
  return fc.tuple(fc.record(shape, { requiredKeys: [] }), fc.option(extra, { freq: 5 }))
    .map(([known, more]) => ({ ...known, ...(more ?? {}) }))
}

/** A body of the schema's shape: a list of items, an object, or either of a body that may be one or a list (anyOf). */
function shapeOf (schema: Schema, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((alternative) => shapeOf(alternative, fields)))
  return schema.type === 'array' ? fc.array(valueFor(schema.items, 'item', fields), { maxLength: 4 }) : objectFor(schema, fields)
}

function bodyFor (schema: Schema | undefined, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<string | undefined> {
  const wellFormed = schema === undefined ? fc.constant(undefined) : shapeOf(schema, fields).map((v) => JSON.stringify(v))
  return fc.oneof(
    { weight: 6, arbitrary: wellFormed },
    { weight: 1, arbitrary: anything.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', '[1,]', 'nul', '"\\ud800"', '{"a":1}{"b":2}', `${'['.repeat(5000)}${']'.repeat(5000)}`, '\u0000') },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) }
  )
}

function operationsOf (app: FastifyInstance): Operation[] {
  const doc = (app as unknown as {
    swagger: () => {
      paths: Record<string, Record<string, {
        parameters?: Array<{ in: string, name: string, schema?: Schema }>
        requestBody?: { content?: Record<string, { schema?: Schema }> }
      }>>
    }
  }).swagger()
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const query: Record<string, Schema> = {}
      const pathParams: string[] = []
      for (const p of op.parameters ?? []) {
        if (p.in === 'query') query[p.name] = p.schema ?? {}
        if (p.in === 'path') pathParams.push(p.name)
      }
      operations.push({ method: method.toUpperCase(), path, query, pathParams, body: op.requestBody?.content?.['application/json']?.schema })
    }
  }
  return operations
}

export interface FuzzOptions {
  /** The Authorization header values a client could send; the first is a valid credential. */
  authorizations: string[]
  /** Values for fields and parameters by name (e.g. `filters`, `chat_id`, `id`), beside the generic ones. */
  fields?: Record<string, fc.Arbitrary<unknown>>
  /**
   * Headers sent with every request, or a function giving them before each one (a session cookie and
   * its CSRF token, for the console, signed in again when a request signed it out).
   */
  headers?: Record<string, string> | (() => Promise<Record<string, string>>)
  /** How many requests; FUZZ_RUNS overrides it. */
  runs?: number
  seed?: number
}

/** What is wrong with an answer, or undefined: no 5xx, and every error in the documented body. */
export function answerProblem (status: number, contentType: string | undefined, body: string): string | undefined {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 300)}`
  if (status < 400) {
    if (contentType?.startsWith('text/event-stream') === true) {
      for (const block of body.split('\n\n')) {
        if (!block.startsWith('event: error')) continue
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? ''
        const problem = answerProblem((JSON.parse(data) as { statusCode: number }).statusCode, 'application/json', data)
        if (problem !== undefined) return `in a stream's error event: ${problem}`
      }
    }
    return undefined
  }
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(body) as Record<string, unknown>
  } catch {
    return `a ${status} whose body is not JSON: ${body.slice(0, 200)}`
  }
  const keys = Object.keys(parsed).sort().join(',')
  if (keys !== 'code,error,message,statusCode') return `a ${status} body with keys ${keys}`
  const code = parsed.code as keyof typeof errorCatalog
  if (!(errorCodes as string[]).includes(code)) return `a ${status} with a code outside the catalog: ${String(code)}`
  if (parsed.statusCode !== status) return `a ${status} whose body says ${String(parsed.statusCode)}`
  if (errorCatalog[code].status !== status) return `${code} answered with ${status}, the catalog says ${errorCatalog[code].status}`
  if (parsed.error !== errorCatalog[code].title) return `${code} titled ${String(parsed.error)}`
  if (typeof parsed.message !== 'string' || parsed.message === '') return `${code} without a message`
  if (!/^application\/json/.test(contentType ?? '')) return `a ${status} sent as ${contentType ?? 'no content type'}`
  return undefined
}

const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/x-ndjson', 'text/plain',
      'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/jsonx', '')
  },
  { weight: 1, arbitrary: fc.constant(undefined) }
)

/**
 * A path segment percent-encoded as a client might send it. encodeURIComponent throws on a lone
 * surrogate ("\ud800"); such a unit is sent as the three bytes WTF-8 gives it, which are not valid
 * UTF-8: one more hostile input for the server.
 */
export function percentEncoded (segment: string): string {
  return segment.split(/([\ud800-\udfff])/u).map((part, i) => {
    if (i % 2 === 0) return encodeURIComponent(part)
    const unit = part.charCodeAt(0)
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
  }).join('')
}

/**
 * Sends `runs` arbitrary requests at every route in the app's OpenAPI document (and at a few paths
 * outside it) and fails with the shrunk counterexample when any answer is a 5xx or an error body
 * that does not conform. Returns how many requests were sent and how often each status came back.
 */
export async function fuzzRoutes (app: FastifyInstance, opts: FuzzOptions): Promise<{ requests: number, statuses: Record<number, number> }> {
  const fields = opts.fields ?? {}
  const operations = operationsOf(app)
  const extra: Operation[] = [
    { method: 'GET', path: '/nowhere', query: {}, pathParams: [], body: undefined },
    { method: 'PATCH', path: operations[0]!.path, query: {}, pathParams: operations[0]!.pathParams, body: undefined }
  ]
  const [valid, ...others] = opts.authorizations
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.constantFrom(undefined, ...others, 'Bearer', 'Bearer ', 'Basic abc', `Bearer ${'csk_chat_'.padEnd(300, 'x')}`) },
    { weight: 1, arbitrary: text.map((v) => `Bearer ${v}`) }
  )
  const request = fc.constantFrom(...operations, ...extra).chain((op) => fc.record({
    op: fc.constant(op),
    // As the query's values: a value that is no string goes as its JSON (String() of a generated
    // {"toString": 0} throws, which failed the run rather than the service).
    params: fc.tuple(...op.pathParams.map((name) => valueFor({ type: 'string' }, name, fields).map(asText))),
    query: fc.oneof(
      objectFor({ properties: op.query }, fields),
      fc.dictionary(fc.constantFrom(...Object.keys(op.query), 'x', 'chat_id[]', 'consumer_id'), fc.string({ maxLength: 20 }), { maxKeys: 3 })
    ),
    body: op.body === undefined ? fc.option(bodyFor(undefined, fields), { freq: 4 }) : bodyFor(op.body, fields),
    contentType: contentTypes,
    authorization,
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('', ' ', 'a b', 'x'.repeat(300), '\u00e9')), { freq: 6 }),
    stream: fc.boolean(),
    requestId: fc.option(text, { freq: 4 })
  }))

  const statuses: Record<number, number> = {}
  let requests = 0
  await fc.assert(fc.asyncProperty(request, async (r) => {
    let path = r.op.path
    r.op.pathParams.forEach((name, i) => { path = path.replace(`{${name}}`, percentEncoded(r.params[i] ?? '')) })
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(r.query)) query.append(key, asText(value))
    const headers: Record<string, string> = typeof opts.headers === 'function' ? await opts.headers() : { ...opts.headers }
    if (r.authorization !== undefined) headers.authorization = r.authorization
    if (r.contentType !== undefined && r.body !== undefined && r.body !== null) headers['content-type'] = r.contentType
    if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey
    if (r.stream) headers.accept = 'text/event-stream'
    if (r.requestId !== null) headers['x-request-id'] = r.requestId
    const inject: InjectOptions = {
      method: r.op.method as InjectOptions['method'],
      url: `${path}${query.size > 0 ? `?${query.toString()}` : ''}`,
      headers,
      ...(r.body === undefined || r.body === null ? {} : { payload: r.body })
    }
    const res = await app.inject(inject)
    requests++
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
    const problem = answerProblem(res.statusCode, res.headers['content-type'] as string | undefined, res.body)
    if (problem !== undefined) throw new Error(`${inject.method} ${inject.url}: ${problem}`)
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? opts.runs ?? 500), ...(opts.seed === undefined ? {} : { seed: opts.seed }) })
  return { requests, statuses }
}
