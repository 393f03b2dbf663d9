// HEAP_GROWTH_PERCENT reaches V8: the same workload, which keeps a live set and turns over objects that
// live long enough to be promoted, holds far less garbage in the old generation with a small growth
// than with a large one. Each run is a process of its own: the flag is process-wide.
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const module = new URL('../src/heap-growth.ts', import.meta.url).href

const workload = `
import { getHeapSpaceStatistics } from 'node:v8'
import { limitHeapGrowth } from ${JSON.stringify(module)}
limitHeapGrowth(Number(process.argv.at(-1)))
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size
const live = Array.from({ length: 150_000 }, (_, i) => ({ i, text: 'kept ' + i }))
// Each object outlives a few scavenges (the ring turns over more than the young generation holds), so
// it is promoted and then dies in the old generation: garbage only a full collection frees.
const ring = new Array(400_000)
let max = 0
for (let n = 0; n < 4_000_000; n++) {
  ring[n % ring.length] = { n, text: 'passing ' + n }
  if (n % 20_000 === 0) max = Math.max(max, oldSpace())
}
process.stdout.write(JSON.stringify({ maxOldMb: max / 2 ** 20, live: live.length }))
`

async function maxOldMb (percent: number): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', workload, String(percent)], { timeout: 60_000 })
  return (JSON.parse(stdout) as { maxOldMb: number }).maxOldMb
}

t.test('a small growth percent keeps the old generation near its live size; a large one lets garbage pile up', async (t) => {
  const small = await maxOldMb(10)
  const large = await maxOldMb(300)
  t.ok(large > small * 1.5, `old generation at most ${small.toFixed(0)} MB with 10%, ${large.toFixed(0)} MB with 300%`)
})
