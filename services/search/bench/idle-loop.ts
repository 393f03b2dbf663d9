// A Node process that does nothing but measure its own event-loop delay, beside the service in
// `pnpm bench import`: on a machine whose cores are all busy (load generator, service threads,
// PostgreSQL), a thread waits for a core too, and this is how long an idle one waited. Answers
// server.ts's 'loop-reset' and 'loop-read' with the same 'loop' message (its GC and CPU figures
// are its own, near zero).
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { ServerMessage, ServerRequest } from './server.js'
import { recordStalls, threadCpuMs } from './stalls.js'

const loop = monitorEventLoopDelay({ resolution: 5 })
loop.enable()
const stalls = recordStalls()
let cpuAt = process.cpuUsage()
let mainCpuAt = threadCpuMs()
process.on('message', (m: ServerRequest) => {
  if (m.type === 'loop-reset') {
    loop.reset()
    stalls.reset()
    cpuAt = process.cpuUsage()
    mainCpuAt = threadCpuMs()
  } else if (m.type === 'loop-read') {
    const cpu = process.cpuUsage(cpuAt)
    const message: ServerMessage = { type: 'loop', p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, gcMaxMs: 0, gcMaxKind: '', gcTotalMs: 0, cpuMs: (cpu.user + cpu.system) / 1000, cache: { hits: 0, misses: 0, errors: 0 }, stalls: stalls.read(), mainThreadCpuMs: threadCpuMs() - mainCpuAt }
    process.send?.(message)
  }
})
process.on('disconnect', () => process.exit(0))
