import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { closeRedis, connectRedis } from './connection.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis when REDIS_URL is set; undefined means one node with in-process state. */
    redis: Redis | undefined
  }
}

export interface RedisPluginOptions {
  url?: string | undefined
  /** The service's name, shown in Redis's CLIENT LIST. */
  name: string
}

/** The Redis connection (or its absence), shared by rate limits, idempotency, caches and auth. */
export const redisPlugin = fp<RedisPluginOptions>(async (app, opts) => {
  const redis = opts.url === undefined ? undefined : await connectRedis(opts.url, { name: `chatsearch-${opts.name}`, log: app.log })
  app.decorate('redis', redis)
  if (redis !== undefined) app.addHook('onClose', async () => { await closeRedis(redis) })
}, { name: '@chatsearch/redis', fastify: '5.x' })

/**
 * The readiness check of a configured Redis (none without one). A replica whose Redis is down still
 * serves (rate limits fail open) but refuses keyed writes, so it reports itself not ready.
 */
export function redisCheck (redis: Redis | undefined): Record<string, () => Promise<void>> {
  if (redis === undefined) return {}
  return { redis: async () => { await redis.ping() } }
}
