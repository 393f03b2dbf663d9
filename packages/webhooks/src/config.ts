import { Type, type Static } from 'typebox'

/** The variables of webhooks, read by the chat and the search service; README's configuration table mirrors them. */
export const webhookEnv = {
  /** One delivery attempt, connection to answer, within this time. */
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** Attempts of a delivery before it fails for good. */
  WEBHOOK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 8 }),
  /** The wait after the first failed attempt, doubled after each next one (30 s, 1 min, 2 min, … at most 6 h). */
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 30_000 }),
  /** How often an idle worker looks for due deliveries. */
  WEBHOOK_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1000 }),
  /** Webhook URLs may name loopback, private and other internal addresses (tests, local development). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false })
}
export const WebhookEnvSchema = Type.Object(webhookEnv)
export type WebhookEnv = Static<typeof WebhookEnvSchema>

export interface WebhookConfig {
  timeoutMs: number
  maxAttempts: number
  retryBaseMs: number
  pollMs: number
  allowPrivateNetworks: boolean
}

export const WEBHOOK_DEFAULTS: WebhookConfig = { timeoutMs: 10_000, maxAttempts: 8, retryBaseMs: 30_000, pollMs: 1000, allowPrivateNetworks: false }

export const webhookConfigOf = (env: WebhookEnv): WebhookConfig => ({
  timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
  retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
  pollMs: env.WEBHOOK_POLL_MS,
  allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS
})
