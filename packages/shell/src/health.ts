import type { FastifyInstance } from 'fastify'
import { HealthResponse } from '@chatsearch/contracts'

/** `GET /healthz`: the process is up and serving. */
export async function healthRoutes (app: FastifyInstance, opts: { service: string }) {
  app.get('/healthz', {
    schema: { tags: ['health'], security: [], response: { 200: HealthResponse } }
  }, async () => ({ status: 'ok' as const, service: opts.service }))
}
