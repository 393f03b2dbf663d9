import { constants, mkdirSync } from 'node:fs'
import { access } from 'node:fs/promises'
import { join } from 'node:path'
import type { SearchEngine } from '../../engine/port.js'
import { EmbeddedIndex } from './index.js'
import { EmbeddedKnowledgeIndex } from './knowledge-index.js'
import { ReaderPool, type ReaderLoad } from './readers.js'
import { rebuildOnThread } from './rebuild.js'
import { WriterThread } from './writer.js'

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/

/** Project ids come from our own credential store, but a file name is no place to trust that. */
function checkProjectId (projectId: string) {
  if (!PROJECT_ID.test(projectId)) throw new Error(`invalid project id for an index file: ${projectId}`)
}

/** The default engine: one SQLite index file per project under `dir`, opened on first use. */
export class EmbeddedEngine implements SearchEngine {
  readonly #dir: string
  readonly #embedder: { id: string, dimensions: number }
  readonly #indexes = new Map<string, EmbeddedIndex>()
  readonly #knowledge = new Map<string, EmbeddedKnowledgeIndex>()
  readonly #readers: ReaderPool | undefined
  readonly #writer: WriterThread | undefined

  /**
   * `embedder` identifies the model whose vectors the indexes hold (see prepareVectors). With
   * `readers` > 0, searches and suggestions run on that many reader threads and batches of documents
   * are written on a writer thread; removals stay here. The re-indexing for new settings runs on a
   * thread of its own. `threadNice` lowers the reader and writer threads' priority (SEARCH_THREAD_NICE).
   */
  constructor (dir: string, embedder: { id: string, dimensions: number }, readers = 0, threadNice = 0) {
    this.#dir = dir
    this.#embedder = embedder
    mkdirSync(dir, { recursive: true })
    this.#readers = readers > 0 ? new ReaderPool(readers, embedder, threadNice) : undefined
    this.#writer = readers > 0 ? new WriterThread(embedder, threadNice) : undefined
  }

  async index (projectId: string): Promise<EmbeddedIndex> {
    checkProjectId(projectId)
    let index = this.#indexes.get(projectId)
    if (index === undefined) {
      const file = join(this.#dir, `${projectId}.sqlite`)
      const embedder = this.#embedder
      const writer = this.#writer
      index = new EmbeddedIndex(file, embedder, this.#readers, (settings) => rebuildOnThread({ file, embedder, settings }),
        writer === undefined
          ? undefined
          : {
              upsert: (documents) => writer.upsert(file, documents),
              record: (query, search) => writer.record(file, query, search),
              ingest: (raw, embed, maxItems) => writer.ingest(file, raw, embed, maxItems)
            })
      this.#indexes.set(projectId, index)
    }
    return index
  }

  /** The project's knowledge, in `<project>.knowledge.sqlite` beside its catalog. */
  async knowledge (projectId: string): Promise<EmbeddedKnowledgeIndex> {
    checkProjectId(projectId)
    let index = this.#knowledge.get(projectId)
    if (index === undefined) {
      index = new EmbeddedKnowledgeIndex(join(this.#dir, `${projectId}.knowledge.sqlite`), this.#embedder.id)
      this.#knowledge.set(projectId, index)
    }
    return index
  }

  /**
   * Index files open in this process, catalogs and knowledge: one of each per project used since the
   * start, kept open (their derived indexes with them) for the life of the process.
   */
  get openIndexes (): number {
    return this.#indexes.size + this.#knowledge.size
  }

  /** Words of knowledge chunks kept between searches, over the open knowledge indexes. */
  get keptKnowledgeWords (): number {
    let words = 0
    for (const index of this.#knowledge.values()) words += index.keptWords
    return words
  }

  /** Writes sent to the writer thread and not yet answered (0 without one). */
  get pendingWrites (): number {
    return this.#writer?.pending ?? 0
  }

  /** How busy the reader threads are; undefined when queries run on the event loop. */
  readerLoad (): ReaderLoad | undefined {
    return this.#readers?.load()
  }

  /** The index directory is still there and writable (a lost volume or a read-only disk fails). */
  async ping () {
    await access(this.#dir, constants.R_OK | constants.W_OK)
  }

  async close () {
    await this.#readers?.close()
    await this.#writer?.close()
    for (const index of [...this.#indexes.values(), ...this.#knowledge.values()]) index.close()
    this.#indexes.clear()
    this.#knowledge.clear()
  }
}
