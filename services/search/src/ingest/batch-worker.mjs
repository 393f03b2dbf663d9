// Entry of a batch-checking thread. Module hooks given to the main thread (tsx's) do not reach worker
// threads on Node 20, so the thread registers tsx itself before loading the TypeScript worker.
import { register } from 'tsx/esm/api'

register()
await import('./batch-worker.ts')
