import pLimit, { type LimitFunction } from 'p-limit'

interface Queue { limit: LimitFunction, users: number }

/**
 * One queue per origin for the whole process, so that two crawls of the same site (two projects,
 * or a re-crawl started before the last one ended) still send it at most `concurrency` requests at a time.
 */
const queues = new Map<string, Queue>()

/** The origin's queue, held until `release` is called. */
export function acquireOriginQueue (origin: string, concurrency: number): { schedule: <T>(fn: () => Promise<T>) => Promise<T>, release: () => void } {
  let queue = queues.get(origin)
  if (queue === undefined) {
    queue = { limit: pLimit(concurrency), users: 0 }
    queues.set(origin, queue)
  }
  queue.users++
  const held = queue
  let released = false
  return {
    schedule: async (fn) => await held.limit(fn),
    release: () => {
      if (released) return
      released = true
      if (--held.users === 0) queues.delete(origin)
    }
  }
}
