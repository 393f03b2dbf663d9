import type { Embedder } from '@chatsearch/embeddings'

/**
 * Items embedded per step of an import, so its progress moves while a batch is embedded (the slow
 * part of an import). The bundled model costs the same per item in steps of 8 as in its own chunks
 * of 64; a remote API is asked in the request size it is sent anyway, so no request is added.
 */
export const EMBED_STEP = { bundled: 8, remote: 64 }

/** The same embedder, embedding `step` texts at a time and telling `embedded` how many after each step. */
export function embedInSteps (embedder: Embedder, step: number, embedded: (count: number) => void): Embedder {
  return {
    dimensions: embedder.dimensions,
    async embed (texts) {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += step) {
        const chunk = texts.slice(start, start + step)
        vectors.push(...await embedder.embed(chunk))
        embedded(chunk.length)
      }
      return vectors
    }
  }
}
