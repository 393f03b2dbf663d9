import type { FastifyInstance } from 'fastify'
import { errorBody, HealthResponse, publicErrorResponses, ReadyResponse, ReadyzUnavailable, type CheckResult } from '@chatsearch/contracts'

/** One dependency the service needs to serve requests; resolves when it answered, throws otherwise. */
export type ReadinessCheck = () => Promise<void>

export interface HealthOptions {
  service: string
  /**
   * What `/readyz` asks, by name (`database`, `engine`, `redis`, …). A dependency added later is
   * one more entry here. The checks run concurrently on every call: keep each one cheap.
   */
  checks?: Record<string, ReadinessCheck>
  /** Bound on each check, so a hung dependency answers "timeout" rather than hanging the probe. */
  checkTimeoutMs?: number
}

/** The tag of `/healthz` and `/readyz` in the OpenAPI documents. */
export const healthTag = {
  name: 'health',
  description: 'Liveness and readiness of one instance, for orchestrators and load balancers; no credential needed'
}

const TIMED_OUT = Symbol('timed out')

async function run (check: ReadinessCheck, timeoutMs: number): Promise<{ result: CheckResult, err?: unknown }> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(resolve, timeoutMs, TIMED_OUT) })
  try {
    const outcome = await Promise.race([check(), deadline])
    return { result: outcome === TIMED_OUT ? 'timeout' : 'ok' }
  } catch (err) {
    return { result: 'failed', err }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `GET /healthz`: the process is up and serving (liveness: restart it if this fails).
 * `GET /readyz`: every dependency answers (readiness: send it traffic only when this is 200).
 * A failing check answers 503 naming the check; why it failed is logged, not returned.
 */
export async function healthRoutes (app: FastifyInstance, opts: HealthOptions) {
  const checks = Object.entries(opts.checks ?? {})
  const timeoutMs = opts.checkTimeoutMs ?? 2000

  // Probed every few seconds: their request lines are debug, so that they do not bury the rest.
  app.get('/healthz', {
    config: { requestLogLevel: 'debug' },
    schema: {
      operationId: 'liveness',
      tags: [healthTag.name],
      summary: 'The process is up and serving',
      security: [],
      response: { 200: HealthResponse, ...publicErrorResponses() }
    }
  }, async () => ({ status: 'ok' as const, service: opts.service }))

  app.get('/readyz', {
    config: { requestLogLevel: 'debug' },
    schema: {
      operationId: 'readiness',
      tags: [healthTag.name],
      summary: 'Every dependency of this instance answers',
      security: [],
      response: { 200: ReadyResponse, ...publicErrorResponses(), 503: ReadyzUnavailable }
    }
  }, async (request, reply) => {
    const outcomes = await Promise.all(checks.map(async ([name, check]) => [name, await run(check, timeoutMs)] as const))
    const results: Record<string, CheckResult> = {}
    for (const [name, { result, err }] of outcomes) {
      results[name] = result
      if (result !== 'ok') request.log.warn({ check: name, result, err }, 'readiness check did not pass')
    }
    const failing = outcomes.filter(([, o]) => o.result !== 'ok').map(([name, o]) => `${name} (${o.result})`)
    if (failing.length === 0) return { status: 'ready' as const, service: opts.service, checks: results }
    const body = errorBody('not_ready', `not ready: ${failing.join(', ')}`)
    return reply.code(body.statusCode).send({
      ...body,
      status: 'not_ready' as const,
      service: opts.service,
      checks: results
    })
  })
}
