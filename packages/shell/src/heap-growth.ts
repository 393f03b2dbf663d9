import { setFlagsFromString } from 'node:v8'

/**
 * Fixes how far V8 lets the heap grow past what its last full collection kept alive before it
 * collects again: the limit becomes (1 + percent/100) × the live heap. Left to itself, V8 picks the
 * factor from its collection and allocation speeds, up to 4× when its heap limit is 1 GB or more
 * (Node's default with 4 GB of memory or more). Under a steady load of short requests it climbs
 * there within minutes: a process whose live heap stays at 95 MB then holds up to 360 MB between
 * collections, and its RSS rises with it (`pnpm bench soak`). 0 leaves the choice to V8.
 *
 * V8 reads the flag at every full collection (heap-controller.cc), so setting it at start-up, before
 * the service allocates much, does what `node --heap-growing-percent` would.
 */
export function limitHeapGrowth (percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`)
}
