import closeWithGrace from 'close-with-grace'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'

/** Time given, after the grace period, to close pools and engines before the process is ended anyway. */
const CLOSE_MARGIN_MS = 5000

/**
 * Closes an app gently: no new connections; requests and event streams in flight may finish within
 * `graceMs`. Whatever is still open then is cut, so that the app's resources still close in order.
 */
export async function drain (app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => {
    app.log.warn({ graceMs }, 'grace period over: cutting the requests still in flight')
    app.server.closeAllConnections()
  }, graceMs)
  try {
    await app.close()
  } finally {
    clearTimeout(cut)
  }
}

export interface ShutdownOptions {
  /** How long each app's requests and streams in flight may take to finish (SHUTDOWN_GRACE_MS). */
  graceMs: number
  /** Runs once the apps are closed: stops what they depend on (the embedded PostgreSQL). */
  after?: () => Promise<void>
  log?: FastifyBaseLogger
}

/**
 * On SIGTERM or SIGINT (or a crash), drains the apps one after the other, then runs `after`, and
 * exits (1 after a crash). Callers come first: a chat reply in flight can still ask the search
 * service of the same process. A second signal, or a close that overruns every grace period,
 * ends the process at once.
 */
export function closeOnSignal (apps: FastifyInstance[], opts: ShutdownOptions): void {
  const log = opts.log ?? apps[0]?.log
  closeWithGrace({
    delay: opts.graceMs * apps.length + CLOSE_MARGIN_MS,
    logger: { error: (message: unknown) => log?.error(message) }
  }, async ({ err, signal }) => {
    if (err !== undefined) log?.error({ err }, 'shutting down after an error')
    else log?.info({ signal, graceMs: opts.graceMs }, 'shutting down: finishing the requests in flight')
    try {
      for (const app of apps) await drain(app, opts.graceMs)
    } finally {
      await opts.after?.()
    }
    log?.info('stopped')
  })
}
