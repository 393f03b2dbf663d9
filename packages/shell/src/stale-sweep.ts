import type { LRUCache } from 'lru-cache'

/**
 * lru-cache drops an entry past its TTL only when it is read or evicted; a store that is written far
 * more than read would hold its dead entries up to the cap. The function returned sweeps them
 * (`purgeStale`, one pass over the cache) at most once per `everyMs`; call it on each write.
 */
export function staleSweeper<V extends NonNullable<unknown>> (cache: LRUCache<string, V>, everyMs = 1000): (now?: number) => void {
  let sweptAt = 0
  return (now = Date.now()) => {
    if (now - sweptAt < everyMs) return
    sweptAt = now
    cache.purgeStale()
  }
}
