import { getPriority, setPriority } from 'node:os'

/**
 * Lowers the calling thread's scheduling priority by `nice` steps (capped at 19), so that when
 * every core is busy the service's event loop, which answers health checks and hands work out, runs
 * before the engine's threads. Linux keeps a nice value per thread; elsewhere os.setPriority would
 * lower the whole process, so nothing changes there. A refusal (a container that forbids it) leaves
 * the thread as it was: only its priority is at stake.
 */
export function lowerThisThread (nice: number): void {
  if (nice <= 0 || process.platform !== 'linux') return
  try {
    setPriority(Math.min(19, getPriority() + nice))
  } catch {}
}
