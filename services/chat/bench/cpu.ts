import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'

/** CPU used during a run, in % of one core (two busy cores: 200). Linux only. */
export interface CpuUse {
  /** This process: autocannon. */
  loadgen: number
  /** The servers' processes. */
  server: number
  /** The embedded PostgreSQL's processes; null when the database is elsewhere (then counted in other). */
  postgres: number | null
  /** Everything else on the machine: what is not the benchmark's own work disturbs the figures. */
  other: number
}

// Linux reports CPU time in USER_HZ ticks, 100 per second on every architecture it runs on.
const TICKS_PER_S = 100

/** State onwards: the command name before it is in parentheses and may hold spaces. */
function statFields (pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** utime + stime (fields 14 and 15). */
const processTicks = (pid: number | string) => {
  const fields = statFields(pid)
  return Number(fields[11]) + Number(fields[12])
}

function busyTicks (): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  return user! + nice! + system! + irq! + softirq! + steal!
}

/** CPU ticks of a PostgreSQL cluster's postmaster and its children (backends, workers), by pid. */
function clusterTicks (clusterDir: string): Map<string, number> {
  const ticks = new Map<string, number>()
  const postmaster = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim()
  ticks.set(postmaster, processTicks(postmaster))
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const fields = statFields(pid)
      if (fields[1] === postmaster) ticks.set(pid, Number(fields[11]) + Number(fields[12]))
    } catch {
      // The process ended while we looked.
    }
  }
  return ticks
}

/**
 * Starts measuring; the returned function gives the CPU used since, or undefined where /proc is
 * not there to read (the benchmark then reports no CPU figures).
 */
export function cpuMeter (serverPids: number[], clusterDir: string | undefined): () => CpuUse | undefined {
  const read = () => {
    try {
      return {
        at: performance.now(),
        self: processTicks(process.pid),
        server: serverPids.reduce((sum, pid) => sum + processTicks(pid), 0),
        postgres: clusterDir === undefined ? undefined : clusterTicks(clusterDir),
        busy: busyTicks()
      }
    } catch {
      return undefined
    }
  }
  const start = read()
  return () => {
    const end = read()
    if (start === undefined || end === undefined) return undefined
    const perCore = (ticks: number) => Math.round(100 * ticks / TICKS_PER_S / ((end.at - start.at) / 1000))
    const loadgen = perCore(end.self - start.self)
    const server = perCore(end.server - start.server)
    // Backends that started during the run count from zero; those that ended are missed.
    const postgres = end.postgres === undefined
      ? null
      : perCore([...end.postgres].reduce((sum, [pid, t]) => sum + t - (start.postgres?.get(pid) ?? 0), 0))
    const busy = Math.min(perCore(end.busy - start.busy), 100 * cpus().length)
    return { loadgen, server, postgres, other: Math.max(0, busy - loadgen - server - (postgres ?? 0)) }
  }
}

/**
 * CPU time the benchmark's own processes spent per request, in µs: robust where req/s is not,
 * because other work on the machine slows the run without adding to it.
 */
export const cpuPerRequest = (cpu: CpuUse | undefined, rps: number) =>
  cpu === undefined || rps === 0 ? undefined : Math.round((cpu.loadgen + cpu.server + (cpu.postgres ?? 0)) * 1e4 / rps)

/** CPU the machine is using right now, over one second, in % of one core; undefined without /proc. */
export async function busyNow (): Promise<number | undefined> {
  try {
    const start = busyTicks()
    const at = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    return Math.round(100 * (busyTicks() - start) / TICKS_PER_S / ((performance.now() - at) / 1000))
  } catch {
    return undefined
  }
}
