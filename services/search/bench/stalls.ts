// What the event loop's stalls are made of, on Linux: a timer ticks every TICK_MS, and when a tick
// comes STALL_MS or more late, the main thread's scheduler figures (/proc/thread-self/schedstat: time
// run on a core, time spent runnable but waiting for one) say how much of the stall the thread ran
// (JavaScript, GC, a synchronous call), how much it waited for a core (the machine is busy), and the
// rest, blocked (a lock, a synchronous wait). Elsewhere only the stalls' lengths are known.
import { readFileSync } from 'node:fs'

const TICK_MS = 5
const STALL_MS = 20

export interface Stall { ms: number, runMs: number, waitMs: number, blockedMs: number }
export interface Stalls {
  /** Stalls of STALL_MS or more since the last reset, and their summed parts. */
  count: number
  total: Stall
  /** The longest one. */
  worst: Stall
}

const none = (): Stall => ({ ms: 0, runMs: 0, waitMs: 0, blockedMs: 0 })

/** [run, wait] in ms; NaN where /proc/thread-self/schedstat cannot be read. */
function schedstat (): [number, number] {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')
    return [Number(run) / 1e6, Number(wait) / 1e6]
  } catch {
    return [Number.NaN, Number.NaN]
  }
}

/** CPU time this thread has run, ms (from /proc/thread-self/schedstat); NaN where it cannot be read. */
export const threadCpuMs = () => schedstat()[0]

/** Starts recording this thread's stalls; `read()` returns them, `reset()` starts over. */
export function recordStalls (): { read: () => Stalls, reset: () => void } {
  let stalls: Stalls = { count: 0, total: none(), worst: none() }
  let at = performance.now()
  let [run, wait] = schedstat()
  setInterval(() => {
    const now = performance.now()
    const [runNow, waitNow] = schedstat()
    const ms = now - at - TICK_MS
    if (ms >= STALL_MS) {
      // The parts cover the whole interval since the last tick: the stall and the tick's own TICK_MS.
      const stall = { ms, runMs: runNow - run, waitMs: waitNow - wait, blockedMs: Math.max(0, now - at - (runNow - run) - (waitNow - wait)) }
      stalls.count++
      for (const key of Object.keys(stall) as Array<keyof Stall>) stalls.total[key] += stall[key]
      if (ms > stalls.worst.ms) stalls.worst = stall
    }
    at = now
    run = runNow
    wait = waitNow
  }, TICK_MS).unref()
  return { read: () => stalls, reset: () => { stalls = { count: 0, total: none(), worst: none() } } }
}
