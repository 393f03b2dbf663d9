export interface Embedder {
  readonly dimensions: number
  /**
   * One vector per text, in order. A text with nothing in it (empty or white space only) gets the
   * zero vector: it means nothing, and a caller stores no vector for it and searches with none (see
   * isUsableVector). Every other text gets a unit vector.
   */
  embed (texts: string[]): Promise<Float32Array[]>
}

/** Whether a vector can stand for a text: finite, and not the zero vector of a text with nothing in it. */
export function isUsableVector (vector: Float32Array | undefined): vector is Float32Array {
  if (vector === undefined) return false
  let norm = 0
  for (const x of vector) norm += x * x
  return Number.isFinite(norm) && norm > 0
}

/**
 * `embed` applied to the texts that have something in them; the others get the zero vector without
 * being sent. Neither model takes them: USE-lite encodes an empty text to no token at all and fails
 * on it (or drops it from the end of a batch), and OpenAI answers 400 to an empty input.
 */
export async function embedNonBlank (texts: string[], dimensions: number, embed: (texts: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
  const positions: number[] = []
  texts.forEach((text, i) => { if (text.trim() !== '') positions.push(i) })
  const vectors = positions.length === 0 ? [] : await embed(positions.map((i) => texts[i]!))
  if (vectors.length !== positions.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${positions.length} texts`)
  const out: Float32Array[] = texts.map(() => new Float32Array(dimensions))
  positions.forEach((position, k) => { out[position] = vectors[k]! })
  return out
}
