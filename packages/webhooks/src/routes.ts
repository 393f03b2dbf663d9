import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  AdminDeleted, AdminHeaders, WebhookCreateBody, WebhookDelivery, WebhookDeliveryList, WebhookDeliveryParams, WebhookDeliveryQuery,
  WebhookEndpoint, WebhookEndpointList, WebhookEndpointWithSecret, WebhookParams, WebhookUpdateBody, bodyErrors, chatErrors, errorResponses, webhookEndpointsMax
} from '@chatsearch/contracts'
import { ApiError, integerQuery } from '@chatsearch/shell'
import { checkWebhookUrl } from './url.js'
import { DELIVERY_RETENTION_DAYS } from './worker.js'
import { createEndpoint, deleteEndpoint, endpointExists, listDeliveries, listEndpoints, retryDelivery, rotateSecret, updateEndpoint } from './store.js'

export interface WebhookRoutesOptions {
  /** The project a request acts for (the admin scope's X-Project-Id). */
  projectOf: (request: FastifyRequest) => string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** An id that is no UUID names nothing: the same 404 as an unknown one, without asking PostgreSQL to cast it. */
const known = (id: string) => UUID.test(id)
const notFound = (id: string) => new ApiError('webhook_not_found', `webhook ${id} does not exist`)

/**
 * The console's routes for a project's webhooks (decision 15's admin scope: service token and
 * X-Project-Id). The secret is answered when made, at creation and rotation, and never again.
 */
export async function webhookAdminRoutes (app: FastifyInstance, opts: WebhookRoutesOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const common = { tags: ['admin'], headers: AdminHeaders }
  const { projectOf } = opts
  const allowPrivate = () => app.webhooks.options.allowPrivateNetworks

  api.get('/admin/webhooks', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminListWebhooks',
      summary: 'The project\'s webhook endpoints, oldest first (without their secrets)',
      response: { 200: WebhookEndpointList, ...errorResponses(...chatErrors.adminListWebhooks) }
    }
  }, async (request) => ({ results: await listEndpoints(app.pg, projectOf(request)) }))

  api.post('/admin/webhooks', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminCreateWebhook',
      summary: 'Add a webhook endpoint: its URL and the events it is sent; answers its signing secret, this once',
      description: `A project has at most ${webhookEndpointsMax} endpoints (400 \`invalid_request\` beyond). The URL is refused (400 \`invalid_webhook_url\`) when it is not http(s), carries a user or password, or names or resolves to an internal address (loopback, private, link-local, metadata…) while WEBHOOK_ALLOW_PRIVATE_NETWORKS is off; each delivery checks the address again.`,
      body: WebhookCreateBody,
      response: { 201: WebhookEndpointWithSecret, ...errorResponses(...bodyErrors, ...chatErrors.adminCreateWebhook) }
    }
  }, async (request, reply) => {
    const { url, events, enabled } = request.body
    const checked = await checkWebhookUrl(url, allowPrivate())
    const created = await createEndpoint(app.pg, projectOf(request), checked, events, enabled ?? true, webhookEndpointsMax)
    if (created === undefined) throw new ApiError('invalid_request', `a project has at most ${webhookEndpointsMax} webhook endpoints; delete one first`)
    return await reply.code(201).send(created)
  })

  api.patch('/admin/webhooks/:webhook_id', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminUpdateWebhook',
      summary: 'Change an endpoint\'s URL, events or whether it is enabled',
      description: 'A disabled endpoint is sent nothing: its pending deliveries wait until it is enabled again.',
      params: WebhookParams,
      body: WebhookUpdateBody,
      response: { 200: WebhookEndpoint, ...errorResponses(...bodyErrors, ...chatErrors.adminUpdateWebhook) }
    }
  }, async (request) => {
    const id = request.params.webhook_id
    if (!known(id)) throw notFound(id)
    const { url, events, enabled } = request.body
    const checked = url === undefined ? undefined : await checkWebhookUrl(url, allowPrivate())
    const updated = await updateEndpoint(app.pg, projectOf(request), id, {
      ...(checked === undefined ? {} : { url: checked }),
      ...(events === undefined ? {} : { events }),
      ...(enabled === undefined ? {} : { enabled })
    })
    if (updated === undefined) throw notFound(id)
    if (enabled === true) app.webhooks.wake()
    return updated
  })

  api.delete('/admin/webhooks/:webhook_id', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminDeleteWebhook',
      summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
      params: WebhookParams,
      response: { 200: AdminDeleted, ...errorResponses(...bodyErrors, ...chatErrors.adminDeleteWebhook) }
    }
  }, async (request) => {
    const id = request.params.webhook_id
    if (!known(id) || !await deleteEndpoint(app.pg, projectOf(request), id)) throw notFound(id)
    return { deleted: true as const }
  })

  api.post('/admin/webhooks/:webhook_id/secret', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminRotateWebhookSecret',
      summary: 'Give the endpoint a new signing secret, answered this once; deliveries are signed with it from now on',
      params: WebhookParams,
      response: { 200: WebhookEndpointWithSecret, ...errorResponses(...bodyErrors, ...chatErrors.adminRotateWebhookSecret) }
    }
  }, async (request) => {
    const id = request.params.webhook_id
    const rotated = known(id) ? await rotateSecret(app.pg, projectOf(request), id) : undefined
    if (rotated === undefined) throw notFound(id)
    return rotated
  })

  api.post('/admin/webhooks/:webhook_id/test', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminTestWebhook',
      summary: 'Send the endpoint a `ping` event now (the console\'s "Send test event"), whatever its events; answers the delivery, to follow in the log',
      params: WebhookParams,
      response: { 202: WebhookDelivery, ...errorResponses(...bodyErrors, ...chatErrors.adminTestWebhook) }
    }
  }, async (request, reply) => {
    const id = request.params.webhook_id
    const made = known(id) ? await app.webhooks.ping(projectOf(request), id) : undefined
    if (made === undefined) throw notFound(id)
    return await reply.code(202).send(made)
  })

  api.get('/admin/webhooks/:webhook_id/deliveries', {
    config: { rateLimit: 'admin' },
    preValidation: integerQuery('limit', 'offset'),
    schema: {
      ...common,
      operationId: 'adminListWebhookDeliveries',
      summary: 'The endpoint\'s delivery log, newest first: each delivery\'s event, status, attempts, last HTTP status and last error',
      description: `Finished deliveries are kept ${DELIVERY_RETENTION_DAYS} days.`,
      params: WebhookParams,
      querystring: WebhookDeliveryQuery,
      response: { 200: WebhookDeliveryList, ...errorResponses(...chatErrors.adminListWebhookDeliveries) }
    }
  }, async (request) => {
    const id = request.params.webhook_id
    const projectId = projectOf(request)
    if (!known(id) || !await endpointExists(app.pg, projectId, id)) throw notFound(id)
    const limit = request.query.limit ?? 20
    const offset = request.query.offset ?? 0
    return { ...await listDeliveries(app.pg, projectId, id, limit, offset), limit, offset }
  })

  api.post('/admin/webhooks/:webhook_id/deliveries/:delivery_id/retry', {
    config: { rateLimit: 'admin' },
    schema: {
      ...common,
      operationId: 'adminRetryWebhookDelivery',
      summary: 'Send a delivery again now, with a fresh count of attempts (a failed one, typically)',
      params: WebhookDeliveryParams,
      response: { 202: WebhookDelivery, ...errorResponses(...bodyErrors, ...chatErrors.adminRetryWebhookDelivery) }
    }
  }, async (request, reply) => {
    const { webhook_id: id, delivery_id: deliveryId } = request.params
    const projectId = projectOf(request)
    if (!known(id) || !await endpointExists(app.pg, projectId, id)) throw notFound(id)
    const retried = known(deliveryId) ? await retryDelivery(app.pg, projectId, id, deliveryId) : undefined
    if (retried === undefined) throw new ApiError('delivery_not_found', `webhook ${id} has no delivery ${deliveryId}`)
    app.webhooks.wake()
    return await reply.code(202).send(retried)
  })
}
