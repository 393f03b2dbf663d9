// Entry of the writer thread run from the TypeScript sources; compiled, writer-worker.js is
// loaded instead. See source-thread.mjs for why the module is not loaded through tsx directly.
import { importSource } from '@chatsearch/shell/source-thread'

await importSource(new URL('./writer-worker.ts', import.meta.url))
