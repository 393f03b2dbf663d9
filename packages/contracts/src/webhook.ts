import { Type, type Static } from 'typebox'
import { Timestamp } from './timestamp.js'

// A project's webhooks (issue 29, decision 18): endpoints the console configures, the events they
// are told of, and the log of each delivery.

/** The events an endpoint can subscribe to. */
export const WebhookEventType = Type.Union([
  Type.Literal('chat.handoff'), Type.Literal('chat.answered_by_team'), Type.Literal('feedback.created'), Type.Literal('task.succeeded'), Type.Literal('task.failed'), Type.Literal('task.canceled')
], {
  description: '`chat.handoff`: a turn was handed off to the team; `chat.answered_by_team`: a team member answered a chat; `feedback.created`: a customer rated a reply; `task.succeeded` / `task.failed` / `task.canceled`: a crawl, file or catalog import task ended, or was canceled (POST /tasks/{id}/cancel)'
})
export type WebhookEventType = Static<typeof WebhookEventType>
/** What a delivery carries: a subscribed event, or `ping`, the console's "send test event". */
export const WebhookDeliveryEvent = Type.Union([...WebhookEventType.anyOf, Type.Literal('ping')])
export type WebhookDeliveryEvent = Static<typeof WebhookDeliveryEvent>

/** The longest URL an endpoint may have. */
export const webhookUrlMaxChars = 2048
/** The most endpoints one project may have: each event is one delivery per endpoint. */
export const webhookEndpointsMax = 20

const WebhookUrl = Type.String({
  minLength: 1,
  maxLength: webhookUrlMaxChars,
  description: 'An http(s) URL the service POSTs each event to; an address on loopback, private, link-local or other internal ranges is refused (as the crawler refuses them) unless the operator set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true'
})
const Events = Type.Array(WebhookEventType, { minItems: 1, maxItems: WebhookEventType.anyOf.length, uniqueItems: true, description: 'The events sent to this endpoint' })

export const WebhookEndpoint = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(WebhookEventType),
  enabled: Type.Boolean({ description: 'A disabled endpoint is sent nothing: its pending deliveries wait until it is enabled again' }),
  created_at: Timestamp
}, { additionalProperties: false })
export type WebhookEndpoint = Static<typeof WebhookEndpoint>

/** An endpoint with its signing secret: answered only when the secret is made (creation, rotation). */
export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'The signing secret (`whsec_…`): shown only now; rotate it to get a new one' })
}, { additionalProperties: false })
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>

export const WebhookEndpointList = Type.Object({
  results: Type.Array(WebhookEndpoint, { description: 'Oldest first' })
}, { additionalProperties: false })
export type WebhookEndpointList = Static<typeof WebhookEndpointList>

export const WebhookCreateBody = Type.Object({
  url: WebhookUrl,
  events: Events,
  enabled: Type.Optional(Type.Boolean({ default: true }))
}, { additionalProperties: false })
export type WebhookCreateBody = Static<typeof WebhookCreateBody>

export const WebhookUpdateBody = Type.Object({
  url: Type.Optional(WebhookUrl),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean())
}, { additionalProperties: false, minProperties: 1 })
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>

export const WebhookParams = Type.Object({
  webhook_id: Type.String({ minLength: 1, maxLength: 64 })
})
export type WebhookParams = Static<typeof WebhookParams>

export const WebhookDeliveryParams = Type.Object({
  webhook_id: Type.String({ minLength: 1, maxLength: 64 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 64 })
})
export type WebhookDeliveryParams = Static<typeof WebhookDeliveryParams>

export const WebhookDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
  description: '`pending`: not yet delivered (waiting for its next attempt); `succeeded`: the endpoint answered 2xx; `failed`: every attempt failed'
})

export const WebhookDelivery = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Sent as X-Chatsearch-Delivery' }),
  event_id: Type.String({ format: 'uuid', description: 'The event\'s `id` in the body: the same for every endpoint told of it and every attempt' }),
  event: WebhookDeliveryEvent,
  status: WebhookDeliveryStatus,
  attempts: Type.Integer({ minimum: 0 }),
  last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last answer; null when none came' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed; null after a success or before any attempt' }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'When the next attempt is due; null once succeeded or failed' }),
  created_at: Timestamp,
  delivered_at: Type.Union([Timestamp, Type.Null()])
}, { additionalProperties: false })
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const WebhookDeliveryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }))
})
export type WebhookDeliveryQuery = Static<typeof WebhookDeliveryQuery>

export const WebhookDeliveryList = Type.Object({
  results: Type.Array(WebhookDelivery, { description: 'Newest first' }),
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 })
}, { additionalProperties: false })
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>
