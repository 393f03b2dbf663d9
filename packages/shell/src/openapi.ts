// Routes' `tags` and `summary` are @fastify/swagger's additions to FastifySchema: this reference keeps
// them in the compiled declarations the services build against.
/// <reference types="@fastify/swagger" preserve="true" />
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { OpenAPIV3_1 as OpenApi } from 'openapi-types'
import { errorBodySchema, ResponseHeaders } from '@chatsearch/contracts'
import { documentHeaders } from './openapi-headers.js'
import { healthTag } from './health.js'

export interface OpenApiServer {
  url: string
  description?: string
}

export interface OpenApiOptions {
  title: string
  description: string
  version: string
  /** Where the API is reached; relative URLs are resolved against the document's own. Default: `/`. */
  servers?: OpenApiServer[]
  /** The tags the service's routes use, each with what it groups; `health` is added. */
  tags?: Array<{ name: string, description: string }>
  /**
   * How callers authenticate: the one security scheme, required of every operation unless a route's
   * schema says `security: []`. Default: `bearer`, the project's csk_… credential (chat, search).
   */
  security?: { name: string, scheme: OpenApi.SecuritySchemeObject }
}

const bearerScheme = { name: 'bearer', scheme: { type: 'http', scheme: 'bearer', description: 'The project\'s credential: a secret key (`csk_chat_…`, `csk_search_…`) from a server, or on the chat routes marked for widgets a publishable widget key (`csk_pub_…`) from a page on one of its origins' } } satisfies OpenApiOptions['security']

/** Answered on any path: for a method or a path the service does not have, or an expectation it does not meet. */
const pathResponses = {
  NotFound: {
    description: '`not_found`: no route has this path',
    headers: { 'X-Request-Id': { schema: ResponseHeaders['X-Request-Id'] } },
    content: { 'application/json': { schema: errorBodySchema(['not_found']) } }
  },
  MethodNotAllowed: {
    description: '`method_not_allowed`: the path exists, but not with this method; `Allow` lists the methods it answers to',
    headers: { Allow: { schema: ResponseHeaders.Allow, required: true }, 'X-Request-Id': { schema: ResponseHeaders['X-Request-Id'] } },
    content: { 'application/json': { schema: errorBodySchema(['method_not_allowed']) } }
  },
  ExpectationFailed: {
    description: '`expectation_failed`: an `Expect` header other than `100-continue`, on any path',
    headers: { 'X-Request-Id': { schema: ResponseHeaders['X-Request-Id'] } },
    content: { 'application/json': { schema: errorBodySchema(['expectation_failed']) } }
  }
}

/**
 * The path prefix a gateway serves this service under, from X-Forwarded-Prefix (`/chat`), or '' when
 * reached directly. Only plain path segments (none starting with a dot, so no `..`): the value is
 * written into the document.
 */
function forwardedPrefix (request: FastifyRequest): string {
  const prefix = request.headers['x-forwarded-prefix']
  return typeof prefix === 'string' && /^(\/[\w~-][\w.~-]*){1,8}$/.test(prefix) ? prefix : ''
}

/**
 * The document as this request reached it: behind a gateway its `servers` is the gateway's prefix;
 * reached directly, the servers the service declares.
 */
function withServers (document: object, request: FastifyRequest) {
  const prefix = forwardedPrefix(request)
  return prefix === '' ? document : { ...document, servers: [{ url: prefix }] }
}

/**
 * The page's links are relative (./static/…, ./json) only when it is asked for as `/docs/`; as `/docs`
 * they would be absolute (/docs/static/…) and miss behind a gateway's prefix. `/docs` is sent to
 * `docs/` by a relative redirect, which works directly and under any prefix.
 */
async function docsWithSlash (request: FastifyRequest, reply: FastifyReply) {
  if (request.routeOptions.url === '/docs' && !request.url.split('?', 1)[0]!.endsWith('/')) return await reply.redirect('docs/')
}

/**
 * Collects every route's contract schemas into one OpenAPI document, served at `/openapi.json`,
 * with a browsable page at `/docs/`. Register before the routes: the headers the shell reads and
 * sends are added to each route's schema as it is registered (see `documentHeaders`).
 * The document and the page themselves are hidden from it, as is `GET /metrics` (see metrics.ts).
 */
export const openApiPlugin = fp<OpenApiOptions>(async (app, opts) => {
  app.addHook('onRoute', documentHeaders)
  const security = opts.security ?? bearerScheme
  await app.register(swagger, {
    // The services' routes are at the root; a server's path (a gateway's prefix) is not theirs to lose.
    stripBasePath: false,
    openapi: {
      openapi: '3.1.0',
      info: { title: opts.title, description: opts.description, version: opts.version },
      servers: opts.servers ?? [{ url: '/' }],
      tags: [...(opts.tags ?? []), healthTag],
      components: {
        securitySchemes: { [security.name]: security.scheme },
        // TypeBox schemas are the JSON Schema that OpenAPI 3.1 takes as it is; openapi-types' types do not describe them.
        responses: pathResponses as unknown as OpenApi.ComponentsObject['responses']
      },
      security: [{ [security.name]: [] }]
    }
  })
  // Its own Content-Security-Policy on its routes: the API's (default-src 'none', from helmet) would
  // block the page's scripts and styles and leave it blank in a browser.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiHooks: { onRequest: docsWithSlash },
    transformSpecification: (document, request) => withServers(document, request)
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => withServers(app.swagger(), request))
}, { name: '@chatsearch/openapi', fastify: '5.x' })
