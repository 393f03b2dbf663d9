import { readFile } from 'node:fs/promises'
import { Value } from 'typebox/value'
import { CatalogSettings } from '@chatsearch/contracts'
import { jsonProblem } from '@chatsearch/shell/json-body'
import type { Embedder } from '@chatsearch/embeddings'
import { ingestDocuments, validateDocument, wordSettingsProblem, type EngineIndex, type IndexSettings, type SearchConfig } from '@chatsearch/search/tools'
import { bumpSearchCache, ensureProject } from './database.js'
import { readCatalogFile } from './catalog-file.js'
import { EMBED_STEP, embedInSteps } from './embed-steps.js'
import { withEngine } from './engine.js'
import { CommandError } from './errors.js'
import { SETTINGS_SHAPE } from './settings-shape.js'

/** Where catalogs live and how items are embedded: the search service's own settings. */
export type CatalogEnv = SearchConfig

const BATCH = 500

const withIndex = <T>(config: CatalogEnv, projectId: string, embeddings: boolean, work: (index: EngineIndex, embedder: Embedder | undefined) => Promise<T>) =>
  withEngine(config, embeddings, async (engine, embedder) => await work(await engine.index(projectId), embedder))

/** Told how many of the file's items are done (embedded, or written) as an import goes. */
export type ImportProgress = (done: number, total: number) => void

/**
 * Imports a catalog file into a project's index. The file is read twice: once to check every item
 * (so a bad item stops the import before anything is written, and the total is known for the
 * progress bar), then to write it in batches. Progress moves as items are embedded, then is set
 * exactly as each batch is written.
 */
export async function importCatalog (env: NodeJS.ProcessEnv, config: CatalogEnv, projectId: string, file: string, progress: ImportProgress = () => {}) {
  await ensureProject(env, projectId)
  let total = 0
  for await (const item of readCatalogFile(file)) {
    try {
      // What the API refuses in any body (NUL, lone surrogates, numbers too large to be finite), first.
      const problem = jsonProblem(item)
      if (problem !== undefined) throw new Error(`document ${total}: ${problem}`)
      validateDocument(item, total)
    } catch (err) {
      throw new CommandError(`${file}: ${(err as Error).message.replace(/^document (\d+)/, (_m, n: string) => `item ${Number(n) + 1}`)}; nothing was imported`)
    }
    total++
  }
  const started = Date.now()
  const result = { project_id: projectId, received: 0, indexed: 0, unchanged: 0, total: 0, seconds: 0 }
  progress(0, total)
  const write = async (index: EngineIndex, embedder: Embedder | undefined) => {
    let batch: unknown[] = []
    let embedded = 0
    const step = config.remoteEmbeddings === undefined ? EMBED_STEP.bundled : EMBED_STEP.remote
    const stepped = embedder && embedInSteps(embedder, step, (count) => {
      embedded += count
      progress(result.received + embedded, total)
    })
    const flush = async () => {
      const r = await ingestDocuments(index, batch, stepped)
      result.received += r.received
      result.indexed += r.indexed
      result.unchanged += r.unchanged
      result.total = r.total
      batch = []
      embedded = 0
      progress(result.received, total)
    }
    for await (const item of readCatalogFile(file)) {
      batch.push(item)
      if (batch.length >= BATCH) await flush()
    }
    if (batch.length > 0) await flush()
    result.total = await index.count()
  }
  await withIndex(config, projectId, true, async (index, embedder) => { await staleAfter(env, projectId, () => write(index, embedder)) })
  result.seconds = Math.round((Date.now() - started) / 100) / 10
  return result
}

/** What `catalog settings --set` reads, as its help and its refusals say it. */
/** Shows a project's index settings, or replaces them from a JSON file (the catalog is re-indexed). */
export async function catalogSettings (env: NodeJS.ProcessEnv, config: CatalogEnv, projectId: string, setFile: string | undefined): Promise<IndexSettings> {
  await ensureProject(env, projectId)
  let wanted: IndexSettings | undefined
  if (setFile !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(setFile, 'utf8'))
    } catch (err) {
      throw new CommandError(`${setFile}: ${(err as Error).message}`)
    }
    if (!Value.Check(CatalogSettings, parsed)) {
      const first = [...Value.Errors(CatalogSettings, parsed)][0]
      throw new CommandError(`${setFile}: ${first?.instancePath || 'settings'} ${first?.message ?? 'is invalid'}; expected ${SETTINGS_SHAPE}`)
    }
    // As PUT /settings checks them: a stop word or a synonym that search would never find.
    const problem = wordSettingsProblem(parsed)
    if (problem !== undefined) throw new CommandError(`${setFile}: ${problem}`)
    wanted = parsed
  }
  return await withIndex(config, projectId, false, async (index) => wanted === undefined
    ? await index.settings()
    : await staleAfter(env, projectId, () => index.updateSettings(wanted)))
}

/** Runs a catalog write, then (even after a failure: a batch may have been written) bumps the cache version. */
async function staleAfter<T> (env: NodeJS.ProcessEnv, projectId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } finally {
    if (!await bumpSearchCache(env, projectId)) {
      process.stderr.write('warning: Redis could not be reached; cached search responses of this project expire within SEARCH_CACHE_TTL_S\n')
    }
  }
}
