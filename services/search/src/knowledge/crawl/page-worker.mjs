// Entry of a crawl's page-reading thread run from the TypeScript sources; compiled, page-worker.js is
// loaded instead. See source-thread.mjs for why the module is not loaded through tsx directly.
import { importSource } from '@chatsearch/shell/source-thread'

await importSource(new URL('./page-worker.ts', import.meta.url))
