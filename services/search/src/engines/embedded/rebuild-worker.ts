import { parentPort, workerData } from 'node:worker_threads'
import { EmbeddedIndex } from './index.js'
import type { RebuildRequest } from './rebuild.js'

/**
 * A thread that re-indexes one catalog file with new settings (see rebuild.ts) on its own SQLite
 * connection, in one transaction, then ends. Until it commits, the other connections (the service's,
 * its reader threads') read the old index.
 */
const { file, embedder, settings } = workerData as RebuildRequest
const index = new EmbeddedIndex(file, embedder)
try {
  index.rebuild(settings)
  parentPort!.postMessage({})
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message })
} finally {
  index.close()
}
