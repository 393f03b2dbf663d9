// What the soak samples every few seconds: the service process's resident memory from /proc, its
// V8 heap (used, and live after the last full collection) and external memory from a service's GET /metrics, and every store-size gauge the three
// services publish.
import { readFile } from 'node:fs/promises'

export interface Sample {
  /** Seconds since the load began, as scheduled. */
  atS: number
  rss?: number
  heapUsed?: number
  /** The heap after the last full collection (nodejs_heap_live_bytes); absent before the first. */
  heapLive?: number
  external?: number
  /** Store gauges by series (see storeSeries); absent when a scrape failed. */
  stores: Map<string, number>
  /** Scrapes that failed or timed out. */
  missed: number
}

/** VmRSS of a process, in bytes; undefined once it is gone. */
export async function residentBytes (pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

interface Series { name: string, labels: Array<[string, string]>, value: number }

/** The series of a Prometheus text exposition and the names declared as gauges. */
export function parseExposition (text: string): { gauges: Set<string>, series: Series[] } {
  const gauges = new Set<string>()
  const series: Series[] = []
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) gauge$/.exec(line)
    if (type !== null) { gauges.add(type[1]!); continue }
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line)
    if (match === null) continue
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m): [string, string] => [m[1]!, m[2]!])
    series.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return { gauges, series }
}

/**
 * The gauges of in-process stores: those named `…_entries` or `…_bytes`, other than the runtime's own
 * (`nodejs_…`, `process_…`), keyed `service name{labels}` without the `service` label.
 */
export function storeSeries (text: string, service: string): Map<string, number> {
  const { gauges, series } = parseExposition(text)
  const found = new Map<string, number>()
  for (const s of series) {
    if (!gauges.has(s.name) || !/_(entries|bytes)$/.test(s.name) || /^(nodejs|process)_/.test(s.name)) continue
    const labels = s.labels.filter(([k]) => k !== 'service').map(([k, v]) => `${k}="${v}"`).join(',')
    found.set(`${service} ${s.name}${labels === '' ? '' : `{${labels}}`}`, s.value)
  }
  return found
}

/** One series' value, whatever its labels. */
export function valueOf (text: string, name: string): number | undefined {
  return parseExposition(text).series.find((s) => s.name === name)?.value
}

export interface Scraped { service: string, url: string }

/**
 * One sample of the process. The three services share the process, so the runtime's figures are
 * read from the first service's metrics; each service adds its own stores.
 */
export async function sample (atS: number, pid: number, services: Scraped[], token: string): Promise<Sample> {
  const result: Sample = { atS, stores: new Map(), missed: 0 }
  const [rss, ...texts] = await Promise.all([
    residentBytes(pid),
    ...services.map(async ({ url }) => {
      try {
        const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) })
        const text = await res.text()
        return res.status === 200 ? text : undefined
      } catch {
        return undefined
      }
    })
  ])
  if (rss !== undefined) result.rss = rss
  texts.forEach((text, i) => {
    if (text === undefined) { result.missed++; return }
    if (i === 0) {
      const heapUsed = valueOf(text, 'nodejs_heap_size_used_bytes')
      const external = valueOf(text, 'nodejs_external_memory_bytes')
      if (heapUsed !== undefined) result.heapUsed = heapUsed
      const heapLive = valueOf(text, 'nodejs_heap_live_bytes')
      if (heapLive !== undefined && heapLive > 0) result.heapLive = heapLive
      if (external !== undefined) result.external = external
    }
    for (const [key, value] of storeSeries(text, services[i]!.service)) result.stores.set(key, value)
  })
  return result
}
