export { loadEmbedder, type Embedder } from './use-lite.js'
