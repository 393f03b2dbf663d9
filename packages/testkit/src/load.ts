// One autocannon run (warm-up, then a measured window) whose every request can differ: what the
// chat, search and CLI benches measure HTTP with.
import autocannon from 'autocannon'

/** What one request of a run looks like; called for every request so parameters vary. */
export type NextRequest = () => { path: string, method?: 'GET' | 'POST', body?: string }

export interface LoadOptions {
  url: string
  connections: number
  /** Measured seconds, after `warmupS` seconds whose responses are not counted. */
  durationS: number
  warmupS: number
  /** Sent with every request, after `content-type: application/json`. */
  headers?: Record<string, string>
  next: NextRequest
  /** Ends the run early (the measured window is then as long as the run lasted after the warm-up). */
  signal?: AbortSignal
}

export interface LoadResult {
  connections: number
  durationS: number
  /** Responses completed in the measured window. */
  requests: number
  /** Responses per second over the measured window. */
  rps: number
  /** Latency of the 2xx responses to requests sent in the measured window, ms. */
  p50: number
  p99: number
  max: number
  /** Over the whole run, warm-up included: responses other than 2xx, and requests that got none. */
  non2xx: number
  errors: number
  timeouts: number
  statusCodes: Record<string, number>
}

/** The p-th percentile (nearest rank) of ascending values; NaN for none. */
export function percentile (sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/**
 * One autocannon run of warm-up plus measurement, without reconnecting in between. Every response
 * is recorded (autocannon's own histogram rounds latencies to whole milliseconds and cannot leave
 * out a warm-up). Responses completed after the warm-up count towards req/s; latency is taken from
 * the requests sent after it, so that requests queued behind a cold start do not count.
 */
export async function load (opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  let measured = 0
  let windowStart = Number.POSITIVE_INFINITY
  let windowEnd = Number.NaN
  const headers = { 'content-type': 'application/json', ...opts.headers }
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: opts.url,
      connections: opts.connections,
      duration: opts.warmupS + opts.durationS,
      headers,
      requests: [{
        setupRequest: (request) => {
          const next = opts.next()
          // Fresh headers each time: autocannon writes Content-Length into the headers object it is
          // given, and a request without a body would otherwise send the last body's length.
          return { ...request, headers: { ...headers }, method: next.method ?? 'GET', path: next.path, body: next.body }
        }
      }]
    }, (err: unknown, res) => { windowEnd = performance.now(); if (err == null) resolve(res); else reject(err) })
    instance.on('start', () => { windowStart = performance.now() + opts.warmupS * 1000 })
    if (opts.signal !== undefined) {
      if (opts.signal.aborted) instance.stop()
      else opts.signal.addEventListener('abort', () => instance.stop(), { once: true })
    }
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now()
      if (now < windowStart) return
      measured++
      if (statusCode >= 200 && statusCode < 300 && now - responseTime >= windowStart) latencies.push(responseTime)
    })
  })
  latencies.sort((a, b) => a - b)
  const durationS = opts.signal?.aborted === true ? Math.max(0, (windowEnd - windowStart) / 1000) : opts.durationS
  const statusCodes: Record<string, number> = {}
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0
  return {
    connections: opts.connections,
    durationS,
    requests: measured,
    rps: durationS > 0 ? measured / durationS : Number.NaN,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length === 0 ? Number.NaN : latencies[latencies.length - 1]!,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes
  }
}
