import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'

export interface OpenApiOptions {
  title: string
  description: string
  version: string
}

/**
 * Collects every route's contract schemas into one OpenAPI document, served at `/openapi.json`,
 * with a browsable page at `/docs`. Register before the routes.
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
  // Its own Content-Security-Policy on its routes: the API's (default-src 'none', from helmet) would
  // block the page's scripts and styles and leave it blank in a browser.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}, { name: '@chatsearch/openapi', fastify: '5.x' })
