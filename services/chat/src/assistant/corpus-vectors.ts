import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Embedder } from '@chatsearch/embeddings'

/** Beside the package, where tools keep what they can compute again; where it cannot be written, nothing is kept. */
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/chatsearch/', import.meta.url))

/**
 * The vectors of the classifier's corpus, kept on disk by the first process that embeds them: USE-lite
 * takes about 7 s over the corpus, at every start of the service, of each test file and of the eval.
 * The file is named for the model, the dimensions and the texts, so any change of them embeds again;
 * one of the wrong size is not read. Training from the kept vectors gives the same classifier.
 */
export async function corpusVectors (embedder: Embedder, model: string, texts: string[], dir: string = CACHE_DIR): Promise<Float32Array[]> {
  const name = createHash('sha256').update(`${model}\n${embedder.dimensions}\n${JSON.stringify(texts)}`).digest('hex').slice(0, 32)
  const file = join(dir, `classifier-${name}.f32`)
  const kept = await readFile(file).catch(() => undefined)
  const size = embedder.dimensions * Float32Array.BYTES_PER_ELEMENT
  if (kept !== undefined && kept.byteLength === texts.length * size) {
    // A copy: the read buffer's offset need not be a multiple of 4.
    const values = new Float32Array(kept.buffer.slice(kept.byteOffset, kept.byteOffset + kept.byteLength))
    if (values.every(Number.isFinite)) return texts.map((_, i) => values.subarray(i * embedder.dimensions, (i + 1) * embedder.dimensions))
  }
  const vectors = await embedder.embed(texts)
  await keep(dir, file, vectors).catch(() => {})
  return vectors
}

/**
 * Written whole under another name, then renamed: a process reading it never sees half of it. What
 * was written of one that could not be finished (a full disk, the name taken by a folder) is removed:
 * each process names its own, so no other would ever remove or reuse it.
 */
async function keep (dir: string, file: string, vectors: Float32Array[]): Promise<void> {
  await mkdir(dir, { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  try {
    await writeFile(partial, Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))))
    await rename(partial, file)
  } catch (err) {
    await rm(partial, { force: true })
    throw err
  }
}
