import { chmodSync, constants, mkdirSync } from 'node:fs'
import { access } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { EngineIndex, KnowledgeIndex, SearchEngine } from '../../engine/port.js'
import { catalogHandle, knowledgeHandle } from './handles.js'
import { EmbeddedIndex } from './index.js'
import { EmbeddedKnowledgeIndex } from './knowledge-index.js'
import { OPEN_INDEXES_DEFAULT, OpenIndexes } from './open-indexes.js'
import { ReaderPool, type ReaderLoad } from './readers.js'
import { rebuildOnThread } from './rebuild.js'
import { WriterThread } from './writer.js'

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/

/** Project ids come from our own credential store, but a file name is no place to trust that. */
function checkProjectId (projectId: string) {
  if (!PROJECT_ID.test(projectId)) throw new Error(`invalid project id for an index file: ${projectId}`)
}

/**
 * The default engine: one SQLite index file per project under `dir`, a catalog and a knowledge file,
 * opened on first use and kept open, at most `openIndexes` files, the least recently used closed
 * first (see OpenIndexes); a project's next call opens its file again.
 */
export class EmbeddedEngine implements SearchEngine {
  readonly #dir: string
  readonly #embedder: { id: string, dimensions: number }
  readonly #knowledgeEmbedder: string
  readonly #open: OpenIndexes
  readonly #readers: ReaderPool | undefined
  readonly #writer: WriterThread | undefined

  /**
   * `embedder` identifies the model whose vectors the catalogs hold (see prepareVectors), and
   * `knowledgeEmbedder` the knowledge's (absent: the same). With
   * `readers` > 0, searches and suggestions run on that many reader threads and batches of documents
   * are written on a writer thread; removals stay here. The re-indexing for new settings runs on a
   * thread of its own. `threadNice` lowers the reader and writer threads' priority (SEARCH_THREAD_NICE).
   * `openIndexes` bounds the files open at once (SEARCH_OPEN_INDEXES); the reader and writer threads
   * close a catalog file when it is closed here, so they hold no more.
   */
  constructor (dir: string, embedder: { id: string, dimensions: number }, readers = 0, threadNice = 0, openIndexes = OPEN_INDEXES_DEFAULT,
    knowledgeEmbedder: { id: string } = embedder) {
    this.#dir = dir
    this.#embedder = embedder
    this.#knowledgeEmbedder = knowledgeEmbedder.id
    ownDirectory(dir)
    this.#readers = readers > 0 ? new ReaderPool(readers, embedder, threadNice) : undefined
    this.#writer = readers > 0 ? new WriterThread(embedder, threadNice) : undefined
    this.#open = new OpenIndexes(openIndexes, (file, index) => {
      if (!(index instanceof EmbeddedIndex)) return
      this.#readers?.closeFile(file)
      this.#writer?.closeFile(file)
    })
  }

  /** The project's catalog, opened now (timed as `open`) unless it is open already. */
  async index (projectId: string): Promise<EngineIndex> {
    checkProjectId(projectId)
    const file = join(this.#dir, `${projectId}.sqlite`)
    const open = () => this.#openCatalog(file)
    const handle = catalogHandle((work) => this.#open.use(file, open, work), this.#writer !== undefined)
    await this.#open.use(file, open, async () => {})
    return handle
  }

  #openCatalog (file: string): EmbeddedIndex {
    const embedder = this.#embedder
    const writer = this.#writer
    return new EmbeddedIndex(file, embedder, this.#readers, (settings) => rebuildOnThread({ file, embedder, settings }),
      writer === undefined
        ? undefined
        : {
            upsert: (documents) => writer.upsert(file, documents),
            record: (query, search) => writer.record(file, query, search),
            ingest: (raw, embed, maxItems) => writer.ingest(file, raw, embed, maxItems)
          })
  }

  /** The project's knowledge, in `<project>.knowledge.sqlite` beside its catalog. */
  async knowledge (projectId: string): Promise<KnowledgeIndex> {
    checkProjectId(projectId)
    const file = join(this.#dir, `${projectId}.knowledge.sqlite`)
    const open = () => new EmbeddedKnowledgeIndex(file, this.#knowledgeEmbedder)
    const handle = knowledgeHandle((work) => this.#open.use(file, open, work))
    await this.#open.use(file, open, async () => {})
    return handle
  }

  /** Index files open in this process, catalogs and knowledge, with their derived indexes: at most the cap. */
  get openIndexes (): number {
    return this.#open.size
  }

  /** Words of knowledge chunks kept between searches, over the open knowledge indexes. */
  get keptKnowledgeWords (): number {
    let words = 0
    for (const index of this.#open.indexes()) if (index instanceof EmbeddedKnowledgeIndex) words += index.keptWords
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
    this.#open.closeAll()
  }
}

/**
 * The index directory, readable by this process's user alone: its files hold the catalogs, the
 * knowledge's text and the searches shoppers made, and SQLite creates them as the umask says (0644
 * by default). The parent (DATA_DIR) keeps its own mode: the embedded PostgreSQL's user must pass
 * through it. A directory made by an earlier version (0755) is tightened; one this user may not
 * chmod (another owner's mount) is left as it is, since the operator chose its mode.
 */
function ownDirectory (dir: string): void {
  mkdirSync(dirname(dir), { recursive: true })
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  try {
    chmodSync(dir, 0o700)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err
  }
}
