// Entry of an embedding thread run from the TypeScript sources; compiled, the pool loads
// dist/embed-worker.js instead. See @chatsearch/shell's source-thread.mjs for why the module is not
// loaded through tsx directly.
import { importSource } from '@chatsearch/shell/source-thread'

const worker = await importSource(new URL('./embed-worker.ts', import.meta.url))
export default worker.default
