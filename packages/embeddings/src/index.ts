export { loadEmbedder, type Embedder } from './use-lite.js'
export { openAiEmbedder, type OpenAiEmbedderOptions } from './openai.js'
