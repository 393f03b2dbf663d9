// Entry of a reader thread run from the TypeScript sources; compiled, reader-worker.js is
// loaded instead. See source-thread.mjs for why the module is not loaded through tsx directly.
import { importSource } from '@chatsearch/shell/source-thread'

await importSource(new URL('./reader-worker.ts', import.meta.url))
