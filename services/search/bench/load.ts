// One autocannon run (warm-up, then a measured window) whose every request can differ.
import autocannon from 'autocannon'
import { percentile } from './workload.js'

export interface LoadOptions {
  url: string
  connections: number
  durationS: number
  warmupS: number
  headers?: Record<string, string>
  /** The next request's path and JSON body; called for every request. */
  next: () => { path: string, method: 'GET' | 'POST', body?: string }
  /** Ends the run early (the measured window is then as long as the run lasted after the warm-up). */
  signal?: AbortSignal
}

export interface LoadResult {
  connections: number
  durationS: number
  /** Responses completed in the measured window. */
  requests: number
  rps: number
  /** Latency of the 2xx responses to requests sent in the measured window, ms. */
  p50: number
  p99: number
  /** Over the whole run, warm-up included. */
  non2xx: number
  errors: number
  timeouts: number
}

/**
 * Every response is recorded (autocannon's histogram rounds to whole milliseconds and cannot leave
 * out a warm-up). Responses completed after the warm-up count towards req/s; latency is taken from
 * the requests sent after it, so that requests queued behind a cold start do not count.
 */
export async function load (opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = []
  let measured = 0
  let windowStart = Number.POSITIVE_INFINITY
  let windowEnd = Number.NaN
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: opts.url,
      connections: opts.connections,
      duration: opts.warmupS + opts.durationS,
      headers: { 'content-type': 'application/json', ...opts.headers },
      requests: [{
        setupRequest: (request) => {
          const next = opts.next()
          return { ...request, method: next.method, path: next.path, ...(next.body === undefined ? {} : { body: next.body }) }
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
  return {
    connections: opts.connections,
    durationS,
    requests: measured,
    rps: durationS > 0 ? measured / durationS : Number.NaN,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts
  }
}
