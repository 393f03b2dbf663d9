// A thread of the embedding pool: loads USE-lite once, then embeds the batches piscina hands it.
import { move } from 'piscina'
import { loadUseLite, USE_LITE_DIMENSIONS } from './use-lite-model.js'

const embed = await loadUseLite()

/** The vectors of `texts` (none blank) end to end in one array, moved to the caller without a copy. */
export default async function embedBatch (texts: string[]): Promise<Float32Array> {
  const vectors = await embed(texts)
  const flat = new Float32Array(vectors.length * USE_LITE_DIMENSIONS)
  vectors.forEach((vector, i) => flat.set(vector, i * USE_LITE_DIMENSIONS))
  return move(flat) as Float32Array
}
