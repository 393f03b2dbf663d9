// Entry of a rebuild thread run from the TypeScript sources; compiled, rebuild-worker.js is
// loaded instead. See source-thread.mjs for why the module is not loaded through tsx directly.
import { importSource } from '@chatsearch/shell/source-thread'

await importSource(new URL('./rebuild-worker.ts', import.meta.url))
