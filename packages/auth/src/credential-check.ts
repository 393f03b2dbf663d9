import type { CredentialCheck } from '@chatsearch/shell'
import type { ApiService } from './credential.js'
import { authPlugin, credentialOf } from './plugin.js'

/** The project credentials of `service`, as the service base of @chatsearch/shell registers them. */
export function projectCredentials (service: ApiService): CredentialCheck {
  return {
    register: async (app, config) => {
      await app.register(authPlugin, {
        service,
        cacheTtlMs: config.authCacheTtlMs,
        failuresPerMinute: config.authFailuresPerMinute,
        redis: app.redis,
        ...(config.serviceToken === undefined ? {} : { serviceToken: config.serviceToken })
      })
    },
    identify: credentialOf
  }
}
