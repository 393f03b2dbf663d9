import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { embedNonBlank, type Embedder } from './embedder.js'
import { loadPieceTable, PIECE_TABLE_FILE } from './piece-table.js'
import { PieceTokenizer, readVocabulary, RESERVED_PIECES, SEPARATOR, type Vocabulary } from './pieces.js'
import { USE_LITE_DIMENSIONS } from './use-lite-model.js'

/** The id under which the static embedder's vectors are stored; it changes whenever they would. */
export const STATIC_EMBEDDER_ID = `use-lite-static-v1:${USE_LITE_DIMENSIONS}`

/**
 * Texts embedded between two turns of the event loop: about 10 ms of work for products' texts (about
 * 0.3 ms each at 270 characters: 60 µs to split into some 85 pieces, the rest to add their rows).
 */
const STATIC_SLICE = 32

/**
 * The smooth inverse frequency weight of a piece, a / (a + p) (Arora et al., "A simple but tough-to-beat
 * baseline for sentence embeddings", 2017), with p the piece's probability in USE-lite's vocabulary:
 * a frequent piece ("the", ".", "s") counts little, a rare one almost fully.
 */
export const STATIC_SIF_A = 1e-4

export interface StaticEmbedderOptions {
  /** The piece table's file (default: the package's data/). */
  file?: string
  /** Called once when the table had to be built (no file yet), with the time it took. */
  onBuilt?: (ms: number) => void
}

export interface StaticEmbedder extends Embedder {
  /** The bytes the piece table holds in memory. */
  readonly tableBytes: number
}

let loading: Promise<StaticEmbedder> | undefined

/**
 * A static embedder distilled from USE-lite: a text's vector is the weighted sum of its word pieces'
 * vectors (each piece's USE-lite vector alone, weighted by STATIC_SIF_A), less the direction all such
 * sums share, normalised. No model runs per text: about 0.3 ms for a product's text on the calling
 * thread, against 20–70 ms for USE-lite, with better catalog ranking on `pnpm bench relevance`
 * (README). Word order and context are lost. Loaded once per process.
 */
export function loadStaticEmbedder (options: StaticEmbedderOptions = {}): Promise<StaticEmbedder> {
  if (options.file !== undefined && options.file !== PIECE_TABLE_FILE) return createStaticEmbedder(options)
  loading ??= createStaticEmbedder(options).catch((err: unknown) => {
    loading = undefined
    throw err
  })
  return loading
}

async function createStaticEmbedder (options: StaticEmbedderOptions): Promise<StaticEmbedder> {
  const vocabulary = readVocabulary()
  const tokenizer = new PieceTokenizer(vocabulary)
  const started = performance.now()
  const { table, built } = await loadPieceTable(vocabulary, options.file)
  if (built) options.onBuilt?.(performance.now() - started)
  // Each row scaled by its piece's weight once, so that a text's vector is a plain sum of rows. The
  // word separator alone means nothing: a text of nothing else ("🎧") gets the zero vector.
  for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
    const [piece, logProbability] = vocabulary[id]!
    const weight = piece === SEPARATOR ? 0 : STATIC_SIF_A / (STATIC_SIF_A + Math.exp(logProbability))
    const row = table.subarray(id * USE_LITE_DIMENSIONS, (id + 1) * USE_LITE_DIMENSIONS)
    for (let i = 0; i < row.length; i++) row[i] = row[i]! * weight
  }
  const common = commonDirection(vocabulary, table)
  const embedOne = (text: string): Float32Array => {
    const out = new Float32Array(USE_LITE_DIMENSIONS)
    // Lower case first: the vocabulary is cased, and a title-case word with no piece of its own
    // ("Wireless") would fall apart into short pieces that mean little alone; USE-lite itself reads
    // them in context, this sum cannot.
    for (const id of tokenizer.encode(text.toLowerCase())) {
      if (id < RESERVED_PIECES) continue
      const offset = id * USE_LITE_DIMENSIONS
      for (let i = 0; i < USE_LITE_DIMENSIONS; i++) out[i] = out[i]! + table[offset + i]!
    }
    let along = 0
    for (let i = 0; i < out.length; i++) along += out[i]! * common[i]!
    for (let i = 0; i < out.length; i++) out[i] = out[i]! - along * common[i]!
    let norm = 0
    for (const x of out) norm += x * x
    norm = Math.sqrt(norm)
    if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm
    return out
  }
  return {
    dimensions: USE_LITE_DIMENSIONS,
    tableBytes: table.byteLength,
    embed: (texts) => embedNonBlank(texts, USE_LITE_DIMENSIONS, async (some) => {
      const vectors: Float32Array[] = []
      for (let start = 0; start < some.length; start += STATIC_SLICE) {
        if (start > 0) await yieldToEvents()
        for (const text of some.slice(start, start + STATIC_SLICE)) vectors.push(embedOne(text))
      }
      return vectors
    })
  }
}

/**
 * The direction every sum of pieces shares: the weighted rows averaged as the vocabulary's own piece
 * probabilities expect them in a text, as a unit vector. Summed piece vectors all lean that way, so
 * that two unrelated texts had a cosine of about 0.7 (a median over shoppers' and help-centre
 * sentences) against 0.2 with USE-lite; with it taken out, about 0.1, and those who compare a cosine
 * with a cut (the assistant's relevance model) read it on the scale they know. This is the common
 * component removal of the SIF paper, estimated from the vocabulary instead of a corpus.
 */
function commonDirection (vocabulary: Vocabulary, table: Float32Array): Float32Array {
  const common = new Float32Array(USE_LITE_DIMENSIONS)
  for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
    const probability = Math.exp(vocabulary[id]![1])
    const offset = id * USE_LITE_DIMENSIONS
    for (let i = 0; i < USE_LITE_DIMENSIONS; i++) common[i] = common[i]! + probability * table[offset + i]!
  }
  let norm = 0
  for (const x of common) norm += x * x
  norm = Math.sqrt(norm)
  for (let i = 0; i < common.length; i++) common[i] = common[i]! / norm
  return common
}
