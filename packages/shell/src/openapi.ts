// Routes' `tags` and `summary` are @fastify/swagger's additions to FastifySchema: this reference keeps
// them in the compiled declarations the services build against.
/// <reference types="@fastify/swagger" preserve="true" />
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'

export interface OpenApiOptions {
  title: string
  description: string
  version: string
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

/** The document as this request reached it: its `servers` say where the API is, behind a gateway too. */
function withServers (document: object, request: FastifyRequest) {
  return { ...document, servers: [{ url: forwardedPrefix(request) || '/' }] }
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
 * with a browsable page at `/docs/`. Register before the routes.
 */
export const openApiPlugin = fp<OpenApiOptions>(async (app, opts) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: opts.title, description: opts.description, version: opts.version },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'csk_… credential of the project' } }
      },
      security: [{ bearer: [] }]
    }
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: { onRequest: docsWithSlash },
    transformSpecification: (document, request) => withServers(document, request)
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => withServers(app.swagger(), request))
}, { name: '@chatsearch/openapi', fastify: '5.x' })
