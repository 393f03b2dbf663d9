import { Type, type Static } from 'typebox'
import { errorBodySchema } from './error.js'

export const HealthResponse = Type.Object({
  status: Type.Literal('ok'),
  service: Type.String()
}, { additionalProperties: false })
export type HealthResponse = Static<typeof HealthResponse>

/** What one readiness check found. A failure is named, never explained: the details go to the log. */
export const CheckResult = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('timeout')])
export type CheckResult = Static<typeof CheckResult>

const checks = Type.Record(Type.String(), CheckResult, {
  description: 'Each dependency the service needs (database, engine, …) and whether it answered',
  examples: [{ database: 'ok', engine: 'ok' }]
})

export const ReadyResponse = Type.Object({
  status: Type.Literal('ready'),
  service: Type.String(),
  checks
}, { additionalProperties: false })
export type ReadyResponse = Static<typeof ReadyResponse>

/** 503 from `/readyz`: the documented error body, plus which checks failed. */
export const NotReadyResponse = Type.Object({
  ...errorBodySchema(['not_ready']).properties,
  status: Type.Literal('not_ready'),
  service: Type.String(),
  checks
}, { additionalProperties: false })
export type NotReadyResponse = Static<typeof NotReadyResponse>

/**
 * Every 503 of `/readyz`: not ready (the checks named), or the plain error body when the instance is
 * shutting down and refuses every request.
 */
export const ReadyzUnavailable = Type.Union([NotReadyResponse, errorBodySchema(['service_unavailable'])], {
  description: '`not_ready`: a dependency of this instance did not answer (each check named); `service_unavailable`: the instance is shutting down'
})
