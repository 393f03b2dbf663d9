import autocannon from 'autocannon'
import type { CpuUse } from './cpu.js'

/** What one request of a run looks like; called for every request so parameters vary. */
export type NextRequest = () => { path: string, method?: 'GET' | 'POST', body?: string }

export interface LoadOptions {
  url: string
  connections: number
  /** Measured seconds, after `warmupS` seconds whose responses are not counted. */
  durationS: number
  warmupS: number
  headers?: Record<string, string>
  next: NextRequest
}

export interface LoadResult {
  connections: number
  durationS: number
  /** Responses in the measured window. */
  requests: number
  /** Mean responses per second over the measured window. */
  rps: number
  /** Latency of the 2xx responses of the measured window, in ms. */
  p50: number
  p99: number
  max: number
  /** Over the whole run, warm-up included: responses other than 2xx, and requests that got none. */
  non2xx: number
  errors: number
  timeouts: number
  statusCodes: Record<string, number>
  /** Filled in by the caller, which knows the processes involved. */
  cpu?: CpuUse
}

function percentile (sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/**
 * One autocannon run of warm-up plus measurement, without reconnecting in between. Every response
 * is recorded (autocannon's own histogram rounds latencies to whole milliseconds and cannot leave
 * out the warm-up); only those completed after the warm-up count towards req/s and latency.
 */
export async function load (opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  let measured = 0
  let windowStart = Number.POSITIVE_INFINITY
  let windowEnd = 0
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: opts.url,
      connections: opts.connections,
      duration: opts.warmupS + opts.durationS,
      headers: opts.headers ?? {},
      requests: [{
        setupRequest: (request) => {
          const next = opts.next()
          return { ...request, method: next.method ?? 'GET', path: next.path, ...(next.body === undefined ? {} : { body: next.body }) }
        }
      }]
    }, (err: unknown, result) => { if (err == null) resolve(result); else reject(err) })
    instance.on('start', () => { windowStart = performance.now() + opts.warmupS * 1000 })
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now()
      if (now < windowStart) return
      measured++
      windowEnd = now
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
    })
  })
  const sorted = Float64Array.from(latencies).sort()
  const statusCodes: Record<string, number> = {}
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0
  const seconds = Math.max(opts.durationS, (windowEnd - windowStart) / 1000)
  return {
    connections: opts.connections,
    durationS: opts.durationS,
    requests: measured,
    rps: measured / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes
  }
}
