import { del, get, patch, post, projectPath, query } from './client.js'
import type { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType } from './types.js'

export const listWebhooks = async (id: string) => (await get<{ results: WebhookEndpoint[] }>(projectPath(id, 'webhooks'))).results
export const createWebhook = (id: string, url: string, events: WebhookEventType[]) =>
  post<WebhookEndpointWithSecret>(projectPath(id, 'webhooks'), { url, events })
export const updateWebhook = (id: string, webhookId: string, change: { url?: string, events?: WebhookEventType[], enabled?: boolean }) =>
  patch<WebhookEndpoint>(projectPath(id, 'webhooks', webhookId), change)
export const deleteWebhook = (id: string, webhookId: string) => del(projectPath(id, 'webhooks', webhookId))
export const rotateWebhookSecret = (id: string, webhookId: string) => post<WebhookEndpointWithSecret>(projectPath(id, 'webhooks', webhookId, 'secret'))
export const sendTestEvent = (id: string, webhookId: string) => post<WebhookDelivery>(projectPath(id, 'webhooks', webhookId, 'test'))
export const listDeliveries = (id: string, webhookId: string, limit: number, offset: number) =>
  get<WebhookDeliveryList>(projectPath(id, 'webhooks', webhookId, 'deliveries') + query({ limit, offset }))
export const retryDelivery = (id: string, webhookId: string, deliveryId: string) =>
  post<WebhookDelivery>(projectPath(id, 'webhooks', webhookId, 'deliveries', deliveryId, 'retry'))
