import type { FastifyInstance, FastifySchema } from 'fastify'
import { Type } from 'typebox'
import {
  AdminDeleted, ProjectParams, WebhookCreateBody, WebhookDelivery, WebhookDeliveryList, WebhookDeliveryParams, WebhookDeliveryQuery, WebhookEndpoint,
  WebhookEndpointList, WebhookEndpointWithSecret, WebhookParams, WebhookUpdateBody, bodyErrors, chatErrors, sessionErrorResponses, type ErrorCode
} from '@chatsearch/contracts'
import { forwarded, pathSegment, queryOf, type Upstream } from '../upstream.js'

type Params = Record<string, string>
/** What a forward to the chat service can answer besides the operation's own codes: the console's, and the service's rate limit. */
const forwardErrors = (...codes: ErrorCode[]) => sessionErrorResponses('project_not_found', 'rate_limited', ...codes)
const changeErrors = (...codes: ErrorCode[]) => forwardErrors(...bodyErrors, 'csrf_failed', ...codes)
const HookParams = Type.Object({ ...ProjectParams.properties, ...WebhookParams.properties })
const DeliveryParams = Type.Object({ ...ProjectParams.properties, ...WebhookDeliveryParams.properties })
const hookPath = (p: Params) => `/admin/webhooks/${pathSegment(p.webhook_id ?? '')}`

/**
 * The project's webhooks (issue 29): forwards to the chat service's /admin/webhooks routes with the
 * service token (decision 15), its answers passed on as they are; the service validates.
 */
export async function webhookForwards (app: FastifyInstance, opts: { chat: Upstream }) {
  const { chat } = opts
  const forward = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, upstreamPath: (p: Params) => string, schema: FastifySchema) => {
    app.route({
      method,
      url: `/api/projects/:project_id${path}`,
      ...forwarded,
      schema: { params: ProjectParams, tags: ['webhooks'], ...schema },
      handler: async (request, reply) => await chat.relay(request, reply, request.member.projectId, {
        method,
        path: upstreamPath(request.params as Params),
        query: queryOf(request),
        ...(method === 'POST' || method === 'PATCH' ? { body: request.body ?? {} } : {})
      })
    })
  }

  forward('GET', '/webhooks', () => '/admin/webhooks', {
    operationId: 'listWebhooks',
    summary: 'The project\'s webhook endpoints, oldest first, without their secrets (GET /admin/webhooks of the chat service)',
    response: { 200: WebhookEndpointList, ...forwardErrors(...chatErrors.adminListWebhooks) }
  })
  forward('POST', '/webhooks', () => '/admin/webhooks', {
    operationId: 'createWebhook',
    summary: 'Add a webhook endpoint; its signing secret is answered this once (POST /admin/webhooks)',
    body: WebhookCreateBody,
    response: { 201: WebhookEndpointWithSecret, ...changeErrors(...chatErrors.adminCreateWebhook) }
  })
  forward('PATCH', '/webhooks/:webhook_id', hookPath, {
    operationId: 'updateWebhook',
    summary: 'Change an endpoint\'s URL, events or whether it is enabled (PATCH /admin/webhooks/{webhook_id})',
    params: HookParams,
    body: WebhookUpdateBody,
    response: { 200: WebhookEndpoint, ...changeErrors(...chatErrors.adminUpdateWebhook) }
  })
  forward('DELETE', '/webhooks/:webhook_id', hookPath, {
    operationId: 'deleteWebhook',
    summary: 'Delete an endpoint and its delivery log (DELETE /admin/webhooks/{webhook_id})',
    params: HookParams,
    response: { 200: AdminDeleted, ...changeErrors(...chatErrors.adminDeleteWebhook) }
  })
  forward('POST', '/webhooks/:webhook_id/secret', (p) => `${hookPath(p)}/secret`, {
    operationId: 'rotateWebhookSecret',
    summary: 'A new signing secret for the endpoint, answered this once (POST /admin/webhooks/{webhook_id}/secret)',
    params: HookParams,
    response: { 200: WebhookEndpointWithSecret, ...changeErrors(...chatErrors.adminRotateWebhookSecret) }
  })
  forward('POST', '/webhooks/:webhook_id/test', (p) => `${hookPath(p)}/test`, {
    operationId: 'testWebhook',
    summary: 'Send the endpoint a `ping` event now (POST /admin/webhooks/{webhook_id}/test)',
    params: HookParams,
    response: { 202: WebhookDelivery, ...changeErrors(...chatErrors.adminTestWebhook) }
  })
  forward('GET', '/webhooks/:webhook_id/deliveries', (p) => `${hookPath(p)}/deliveries`, {
    operationId: 'listWebhookDeliveries',
    summary: 'The endpoint\'s delivery log, newest first: status, attempts, last HTTP status and error (GET /admin/webhooks/{webhook_id}/deliveries)',
    params: HookParams,
    querystring: WebhookDeliveryQuery,
    response: { 200: WebhookDeliveryList, ...forwardErrors(...chatErrors.adminListWebhookDeliveries) }
  })
  forward('POST', '/webhooks/:webhook_id/deliveries/:delivery_id/retry', (p) => `${hookPath(p)}/deliveries/${pathSegment(p.delivery_id ?? '')}/retry`, {
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again now, with a fresh count of attempts (POST /admin/webhooks/{webhook_id}/deliveries/{delivery_id}/retry)',
    params: DeliveryParams,
    response: { 202: WebhookDelivery, ...changeErrors(...chatErrors.adminRetryWebhookDelivery) }
  })
}
