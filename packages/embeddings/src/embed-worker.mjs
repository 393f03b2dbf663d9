// Entry of an embedding thread run from the TypeScript sources. Module hooks given to the main thread
// (tsx's) do not reach worker threads on Node 20, so the thread registers tsx itself before loading
// the TypeScript worker. Compiled, the pool loads dist/embed-worker.js instead.
import { register } from 'tsx/esm/api'

register()
const worker = await import('./embed-worker.ts')
export default worker.default
