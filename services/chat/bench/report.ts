import type { LoadResult } from '@chatsearch/testkit/load'
import { cpuPerRequest, type CpuUse } from './cpu.js'

/** A run of the chat bench: testkit's autocannon run, with the CPU the processes used during it. */
export interface ChatRun extends LoadResult {
  /** Filled in by the caller, which knows the processes involved. */
  cpu?: CpuUse
}

export const targets = {
  /** Each read endpoint serves at least this share of the bare route's requests per second (issue 16)… */
  readMinRatio: 0.25,
  /** …with a p99 latency at most this (ms). */
  readMaxP99Ms: 25,
  /** newUserMessage's p50 latency at most this (ms), on one connection. */
  turnMaxP50Ms: 50
} as const

export const readEndpoints = ['latestConsumerChatId', 'listAllProjectConsumerChats', 'readConversation'] as const
export type ReadEndpoint = typeof readEndpoints[number]

export interface Row {
  name: string
  result: ChatRun
  /** req/s over the bare route's, for the read endpoints and the baseline itself. */
  ratio?: number
  target: string
  met?: boolean
}

const ms = (v: number) => Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1)
const int = (v: number) => Math.round(v).toLocaleString('en-US')

export function table (rows: Row[]): string {
  const header = ['endpoint', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'non-2xx', 'CPU gen/srv/pg/other', 'CPU µs/req', 'target', 'result']
  const lines = rows.map((r) => [
    r.name,
    String(r.result.connections),
    int(r.result.rps),
    ms(r.result.p50),
    ms(r.result.p99),
    r.ratio === undefined ? '' : r.ratio.toFixed(2),
    String(r.result.non2xx + r.result.errors),
    r.result.cpu === undefined ? '-' : `${r.result.cpu.loadgen}/${r.result.cpu.server}/${r.result.cpu.postgres ?? '-'}/${r.result.cpu.other}`,
    String(cpuPerRequest(r.result.cpu, r.result.rps) ?? '-'),
    r.target,
    r.met === undefined ? '' : r.met ? 'PASS' : 'FAIL'
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  // Text columns left-aligned, figures right-aligned.
  const left = new Set([0, 9, 10])
  const format = (cells: string[]) => cells.map((c, i) => left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)).join('  ').trimEnd()
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n')
}

/** Figures rounded for the JSON line: ms to 0.01, req/s to 0.1. */
export const round = (v: number, digits = 2) => Number.isFinite(v) ? Number(v.toFixed(digits)) : null

export function figures (r: ChatRun) {
  return {
    connections: r.connections,
    duration_s: r.durationS,
    requests: r.requests,
    rps: round(r.rps, 1),
    p50_ms: round(r.p50),
    p99_ms: round(r.p99),
    max_ms: round(r.max),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    status_codes: r.statusCodes,
    cpu_pct: r.cpu ?? null,
    cpu_us_per_request: cpuPerRequest(r.cpu, r.rps) ?? null
  }
}
