// Requests of the soak by time window: latencies, errors, by endpoint; and the plain tables the
// soak prints.
import { percentile } from '@chatsearch/testkit/load'

export interface Stats {
  requests: number
  errors: number
  /** ms; NaN without requests. */
  p50: number
  p99: number
}

function statsOf (latencies: number[], errors: number): Stats {
  const sorted = Float64Array.from(latencies).sort()
  return { requests: latencies.length, errors, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

interface Open { all: number[], errors: number, byEndpoint: Map<string, { ms: number[], errors: number }> }

export interface ClosedWindow { all: Stats, byEndpoint: Map<string, Stats> }

/** Each request counts in the window in which it completed; those after the end, in the last one. */
export class Windows {
  readonly #open: Array<Open | undefined>
  /** `endpoint status` → count, over the whole run. */
  readonly errorCodes = new Map<string, number>()
  /** Requests per endpoint over the whole run. */
  readonly totals = new Map<string, number>()

  constructor (readonly windowS: number, readonly count: number) {
    this.#open = Array.from({ length: count }, () => ({ all: [], errors: 0, byEndpoint: new Map() }))
  }

  record (atS: number, endpoint: string, ms: number, error?: string) {
    const window = this.#open[Math.min(this.count - 1, Math.max(0, Math.floor(atS / this.windowS)))]
    if (window === undefined) return
    window.all.push(ms)
    let mine = window.byEndpoint.get(endpoint)
    if (mine === undefined) window.byEndpoint.set(endpoint, mine = { ms: [], errors: 0 })
    mine.ms.push(ms)
    this.totals.set(endpoint, (this.totals.get(endpoint) ?? 0) + 1)
    if (error === undefined) return
    window.errors++
    mine.errors++
    const key = `${endpoint} ${error}`
    this.errorCodes.set(key, (this.errorCodes.get(key) ?? 0) + 1)
  }

  /** The figures of window `k`, whose latencies are let go. */
  close (k: number): ClosedWindow {
    const window = this.#open[k]
    if (window === undefined) throw new Error(`window ${k} is already closed`)
    this.#open[k] = undefined
    return {
      all: statsOf(window.all, window.errors),
      byEndpoint: new Map([...window.byEndpoint].map(([endpoint, w]) => [endpoint, statsOf(w.ms, w.errors)]))
    }
  }
}

export const mb = (bytes: number | undefined) => bytes === undefined || Number.isNaN(bytes) ? '-' : (bytes / 2 ** 20).toFixed(1)
export const ms = (v: number) => Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1)
export const int = (v: number) => Math.round(v).toLocaleString('en-US')
export const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`
export const percent = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined || from === 0 ? '-' : `${to >= from ? '+' : ''}${((to / from - 1) * 100).toFixed(1)}%`

/** A table with its first column left-aligned and the others right-aligned, as the other benchmarks print. */
export function table (header: string[], rows: string[][], leftColumns: number[] = [0]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const left = new Set(leftColumns)
  const format = (cells: string[]) => cells.map((c, i) => left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ').trimEnd()
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(format)].join('\n')
}

/** The window table's columns: printed a row at a time as the run goes, so their widths are fixed. */
export const WINDOW_COLUMNS = ['time', 'requests', 'req/s', 'errors', 'p50 ms', 'p99 ms', 'RSS MB', 'heap MB', 'live MB', 'ext. MB']
const WINDOW_WIDTHS = [6, 8, 6, 6, 8, 8, 8, 8, 8, 8]

export function windowLine (cells: string[], note = ''): string {
  const line = cells.map((c, i) => i === 0 ? c.padEnd(WINDOW_WIDTHS[i]!) : c.padStart(WINDOW_WIDTHS[i]!)).join('  ')
  return note === '' ? line : `${line}  ${note}`
}

export const windowRule = () => WINDOW_WIDTHS.map((w) => '-'.repeat(w)).join('  ')
