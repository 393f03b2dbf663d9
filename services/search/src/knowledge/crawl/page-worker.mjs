// Entry of a crawl's page-reading thread. Module hooks given to the main thread (tsx's) do not reach
// worker threads on Node 20, so the thread registers tsx itself before loading the TypeScript worker.
import { register } from 'tsx/esm/api'

register()
await import('./page-worker.ts')
