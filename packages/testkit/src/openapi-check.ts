import type { FastifyInstance } from 'fastify'
import { validate } from '@readme/openapi-parser'
import type { OpenAPIV3_1 as OpenApi } from 'openapi-types'
import { apiVersion, errorCatalog, rateLimitHeaderNames, type ErrorCode } from '@chatsearch/contracts'

// A service's OpenAPI document checked for completeness, for each service's test suite: valid
// OpenAPI 3.1, and every operation documenting what the shell and the catalog say it can answer.
// Nothing in the services imports it.

export interface OpenApiExpectations {
  /** The operations (`POST /documents`, as in the document) that accept Idempotency-Key: exactly these. */
  idempotent: string[]
  /** The operations that answer `Accept: text/event-stream` with server-sent events: exactly these. */
  streams: string[]
  /**
   * The console: signed in by a session cookie instead of the bearer credential. Then the document's
   * scheme must be an apiKey in this cookie; an operation behind it must list 401 `unauthorized`, and
   * one with a state-changing method must take the CSRF header (required) and list 403 `csrf_failed`.
   * No rate limit is counted, so none of its headers nor 429 are required.
   */
  session?: { cookie: string, csrfHeader: string }
}

type Operation = OpenApi.OperationObject
type Schema = OpenApi.SchemaObject

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const
/** Methods whose requests Fastify reads a body for, whether the route wants one or not. */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete'])
/** Methods that change something: behind a session, they must carry its CSRF token. */
const STATE_CHANGING = BODY_METHODS

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** The `code` enums of an error body schema (one per member of an anyOf/oneOf), or a reason it is not one. */
function errorCodesOf (schema: Schema | undefined): string[][] | string {
  if (schema === undefined) return 'no application/json schema'
  const members = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (members !== undefined) {
    const each = members.map(errorCodesOf)
    const bad = each.find((e) => typeof e === 'string')
    return typeof bad === 'string' ? bad : (each as string[][][]).flat()
  }
  const properties = schema.properties as Record<string, Schema> | undefined
  const missing = ['statusCode', 'error', 'code', 'message'].filter((p) => properties?.[p] === undefined || !(schema.required ?? []).includes(p))
  if (missing.length > 0) return `not the error body (lacks ${missing.join(', ')})`
  const codes = properties!.code!.enum
  if (!Array.isArray(codes) || codes.length === 0) return 'its code is not an enum'
  return [codes as string[]]
}

/** Whether the operation takes something required from the caller (then `missing_parameters` can come back). */
function takesRequired (op: Operation): boolean {
  const params = (op.parameters ?? []) as OpenApi.ParameterObject[]
  if (params.some((p) => p.in === 'query' && p.required === true)) return true
  const body = (op.requestBody as OpenApi.RequestBodyObject | undefined)?.content?.['application/json']?.schema as Schema | undefined
  return (body?.required ?? []).length > 0
}

/** The problems of one operation; `answersUnauthenticated` is the status it gave a request without a credential. */
function operationProblems (id: string, method: string, op: Operation, doc: OpenApi.Document, answersUnauthenticated: number, expected: OpenApiExpectations): string[] {
  const problems: string[] = []
  const problem = (text: string) => problems.push(`${id}: ${text}`)
  const declaredTags = new Set((doc.tags ?? []).map((t) => t.name))

  if (op.operationId === undefined || op.operationId === '') problem('no operationId')
  if (op.summary === undefined || op.summary === '') problem('no summary')
  if (op.tags === undefined || op.tags.length === 0) problem('no tags')
  for (const tag of op.tags ?? []) if (!declaredTags.has(tag)) problem(`tag ${tag} is not declared (with a description) in the document's tags`)

  const secured = (op.security ?? doc.security ?? []).some((requirement) => Object.keys(requirement).length > 0)
  if (secured !== (answersUnauthenticated === 401)) {
    problem(secured
      ? `documented behind the ${expected.session === undefined ? 'bearer credential' : 'session'}, but answered ${answersUnauthenticated} without one`
      : 'answered 401 without a credential, but documented without security')
  }

  const headerParameters = ((op.parameters ?? []) as OpenApi.ParameterObject[]).filter((p) => p.in === 'header')
  const headerParams = headerParameters.map((p) => p.name.toLowerCase())
  if (headerParams.includes('authorization')) problem('an Authorization header parameter (OpenAPI ignores it: the security scheme documents it)')
  if (!headerParams.includes('x-request-id')) problem('no X-Request-Id request header')
  const idempotent = expected.idempotent.includes(id)
  if (idempotent !== headerParams.includes('idempotency-key')) {
    problem(idempotent ? 'no Idempotency-Key request header' : 'an Idempotency-Key request header, but it is not expected to accept one')
  }

  const responses = (op.responses ?? {}) as Record<string, OpenApi.ResponseObject>
  const codesAt = new Map<string, Set<string>>()
  const needs = (status: number, codes: ErrorCode[], why: string) => {
    const listed = codesAt.get(String(status))
    const absent = codes.filter((code) => listed?.has(code) !== true)
    if (absent.length > 0) problem(`${why}: ${status} must list ${absent.join(', ')}`)
  }
  const hasHeader = (status: string, name: string) => Object.keys(responses[status]?.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase())

  if (!Object.keys(responses).some((status) => status.startsWith('2'))) problem('no success response')
  for (const [status, response] of Object.entries(responses)) {
    if (!hasHeader(status, 'X-Request-Id')) problem(`${status} without the X-Request-Id header`)
    if (status.startsWith('2')) {
      if (response.content === undefined && status !== '204') problem(`${status} without content`)
      if (secured && expected.session === undefined) for (const name of rateLimitHeaderNames) if (!hasHeader(status, name)) problem(`${status} without the ${name} header`)
      if (idempotent && !hasHeader(status, 'Idempotent-Replayed')) problem(`${status} without the Idempotent-Replayed header`)
      continue
    }
    if (Number(status) < 400) continue
    const found = errorCodesOf(response.content?.['application/json']?.schema as Schema | undefined)
    if (typeof found === 'string') {
      problem(`${status}: ${found}`)
      continue
    }
    codesAt.set(status, new Set(found.flat()))
    for (const code of found.flat()) {
      const entry = errorCatalog[code as ErrorCode] as { status: number } | undefined
      if (entry === undefined) problem(`${status} lists ${code}, which is not in the error catalog`)
      else if (String(entry.status) !== status) problem(`${status} lists ${code}, whose status is ${entry.status}`)
    }
    if ((status === '429' || status === '503') && !hasHeader(status, 'Retry-After')) problem(`${status} without the Retry-After header`)
  }

  needs(400, ['invalid_request'], 'every route')
  needs(500, ['internal_error'], 'every route')
  needs(503, ['service_unavailable'], 'every route')
  if (secured && expected.session !== undefined) {
    needs(401, ['unauthorized'], 'behind the session')
    const csrf = expected.session.csrfHeader.toLowerCase()
    const csrfParam = headerParameters.find((p) => p.name.toLowerCase() === csrf)
    if (STATE_CHANGING.has(method)) {
      if (csrfParam?.required !== true) problem(`no required ${expected.session.csrfHeader} request header`)
      needs(403, ['csrf_failed'], `${method.toUpperCase()} behind the session`)
    } else if (csrfParam !== undefined) {
      problem(`a ${expected.session.csrfHeader} request header, but ${method.toUpperCase()} does not need one`)
    }
  } else if (secured) {
    needs(401, ['unauthorized'], 'behind a credential')
    needs(429, ['rate_limited', 'authentication_throttled'], 'behind a credential')
    for (const name of rateLimitHeaderNames) if (!hasHeader('429', name)) problem(`429 without the ${name} header`)
  }
  if (BODY_METHODS.has(method)) {
    needs(413, ['payload_too_large'], `${method.toUpperCase()} reads a body`)
    needs(415, ['unsupported_media_type'], `${method.toUpperCase()} reads a body`)
  } else {
    for (const status of ['413', '415']) if (responses[status] !== undefined) problem(`${status}, but ${method.toUpperCase()} requests have no body read`)
  }
  if (takesRequired(op)) needs(400, ['missing_parameters'], 'it takes required input')
  if (idempotent) needs(409, ['idempotency_key_in_use'], 'it accepts Idempotency-Key')
  if (idempotent) needs(422, ['idempotency_key_reused'], 'it accepts Idempotency-Key')

  const content = Object.keys(responses['200']?.content ?? {})
  const streams = expected.streams.includes(id)
  if (streams !== content.includes('text/event-stream')) {
    problem(streams ? '200 without text/event-stream content' : '200 with text/event-stream content, but it is not expected to stream')
  }
  if (streams && !content.includes('application/json')) problem('200 without application/json content beside the event stream')
  return problems
}

/**
 * What is missing from or wrong in the app's OpenAPI document (`app.swagger()`); empty when it is
 * complete. The document must be valid OpenAPI 3.1 (@readme/openapi-parser, offline), carry the
 * API version and servers, declare its tags with descriptions, and each operation must have an
 * operationId, a summary and tags, its request and response headers, and the error statuses it
 * can answer, each with the error body whose `code` enum lists only codes of that status. Which
 * operations are behind the credential is not taken from the document: each one is called
 * without a credential, and must be documented with security exactly when it answers 401.
 * `/openapi.json` and `/docs/` must be served (`/docs` redirects there), the page with a policy that lets it run its scripts.
 */
export async function openApiProblems (app: FastifyInstance, expected: OpenApiExpectations): Promise<string[]> {
  const doc = app.swagger() as OpenApi.Document
  const problems: string[] = []

  const validation = await validate(structuredClone(doc), { resolve: { external: false } })
  if (!validation.valid) problems.push(...validation.errors.map((e) => `invalid OpenAPI: ${e.message}`))
  problems.push(...validation.warnings.map((w) => `OpenAPI warning: ${w.message}`))
  if (!doc.openapi.startsWith('3.1')) problems.push(`OpenAPI ${doc.openapi}, not 3.1`)
  if (doc.info.version !== apiVersion) problems.push(`info.version is ${doc.info.version}, not the API version ${apiVersion}`)
  if ((doc.servers ?? []).length === 0) problems.push('no servers')
  for (const tag of doc.tags ?? []) if ((tag.description ?? '') === '') problems.push(`tag ${tag.name} has no description`)
  if (expected.session === undefined) {
    const bearer = doc.components?.securitySchemes?.bearer as OpenApi.HttpSecurityScheme | undefined
    if (bearer?.type !== 'http' || bearer.scheme !== 'bearer') problems.push('no bearer security scheme')
  } else {
    const schemes = Object.values(doc.components?.securitySchemes ?? {}) as OpenApi.ApiKeySecurityScheme[]
    if (!schemes.some((s) => s.type === 'apiKey' && s.in === 'cookie' && s.name === expected.session?.cookie)) problems.push(`no apiKey security scheme in the ${expected.session.cookie} cookie`)
  }

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method]
      if (op === undefined) continue
      const id = `${method.toUpperCase()} ${path}`
      if (!path.startsWith('/')) {
        problems.push(`${id}: the path does not start with /`)
        continue
      }
      const unauthenticated = await app.inject({ method: method.toUpperCase() as 'GET', url: path.replace(/\{[^}]+\}/g, 'x') })
      if (unauthenticated.statusCode === 404 && unauthenticated.json<{ code?: string }>().code === 'not_found') problems.push(`${id}: documented, but the app has no such route`)
      problems.push(...operationProblems(id, method, op, doc, unauthenticated.statusCode, expected))
    }
  }
  for (const id of [...expected.idempotent, ...expected.streams]) {
    const [method, path] = id.split(' ')
    if (!isObject(doc.paths?.[path ?? '']?.[(method ?? '').toLowerCase() as 'get'])) problems.push(`${id} is expected but not documented`)
  }

  const served = await app.inject('/openapi.json')
  if (served.statusCode !== 200 || served.body !== JSON.stringify(doc)) problems.push(`GET /openapi.json answered ${served.statusCode}, not the document`)
  const page = await app.inject('/docs/')
  if (page.statusCode !== 200 || !String(page.headers['content-type']).startsWith('text/html')) problems.push(`GET /docs/ answered ${page.statusCode} ${String(page.headers['content-type'])}, not the page`)
  // The API's own policy (default-src 'none') would leave the page blank in a browser.
  const csp = String(page.headers['content-security-policy'] ?? '')
  if (!/(^|;)\s*script-src [^;]*'self'/.test(csp)) problems.push(`GET /docs/: its Content-Security-Policy does not let the page run its own scripts: ${csp}`)
  return problems
}
