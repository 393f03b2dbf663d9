export { isUsableVector, type Embedder } from './embedder.js'
export { loadEmbedder } from './use-lite.js'
export { openAiEmbedder, type OpenAiEmbedderOptions } from './openai.js'
