/**
 * A catalog batch queued as a `catalog_import` task, as stored: JSON Lines, a first line
 * `{"received": n}` and then one validated item per line. The task reads it a slice at a time, so that
 * neither the request that queues 64 MiB of items nor the task that writes them parses the whole
 * batch at once on the event loop.
 */
export function queuedBatch (received: number, documents: unknown[]): Buffer {
  const lines = [JSON.stringify({ received }), ...documents.map((d) => JSON.stringify(d))]
  return Buffer.from(lines.join('\n'))
}

/** The header of a queued batch and its items, `slice` at a time, each slice parsed when asked for. */
export function readQueuedBatch (bytes: Buffer, slice: number): { received: number, count: number, slices: () => Generator<unknown[]> } {
  const ends: number[] = []
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at)
  ends.push(bytes.length)
  const header = JSON.parse(bytes.subarray(0, ends[0]).toString('utf8')) as { received: number }
  const count = ends.length - 1
  function * slices (): Generator<unknown[]> {
    for (let first = 1; first <= count; first += slice) {
      const last = Math.min(count, first + slice - 1)
      const text = bytes.subarray(ends[first - 1]! + 1, ends[last]).toString('utf8')
      yield JSON.parse(`[${text.split('\n').join(',')}]`) as unknown[]
    }
  }
  return { received: header.received, count, slices }
}
