// pnpm bench relevance: nDCG@10 of keyword and hybrid search over the demo catalog, per query kind,
// from the judged set in catalog/relevance.json, with each bundled embedder (and its import rate). Ends with one line of JSON holding every figure.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadEmbedder, loadStaticEmbedder, STATIC_EMBEDDER_ID, type Embedder } from '@chatsearch/embeddings'
import { EmbeddedEngine } from '../src/engines/embedded/engine.js'
import { ingestDocuments } from '../src/ingest/documents.js'
import { parseFilter } from '@chatsearch/filter'
import { processQuery } from '../src/text.js'
import { demoCatalogFile } from '../src/index.js'

interface Judged { query: string, kind: string, filters?: string, relevant: Record<string, number> }

const K = 10
const RATIOS = [0.5, 0.7, 0.9]

/** Normalised discounted cumulative gain of the first K ids, with graded relevance (gain 2^g − 1). */
export function ndcg (ranked: string[], relevant: Record<string, number>, k = K): number {
  const gain = (g: number) => 2 ** g - 1
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gain(relevant[id] ?? 0) / Math.log2(i + 2), 0)
  const ideal = Object.values(relevant).sort((a, b) => b - a).slice(0, k).reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}

const mean = (xs: number[]) => xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length
const round = (x: number) => Math.round(x * 1000) / 1000

/** The bundled embedders, the default (EMBEDDER=use-lite) first. */
const EMBEDDERS: Array<{ name: string, id: string, load: () => Promise<Embedder> }> = [
  { name: 'use-lite', id: 'use-lite:512', load: () => loadEmbedder() },
  { name: 'static', id: STATIC_EMBEDDER_ID, load: () => loadStaticEmbedder() }
]

async function main () {
  const judged = JSON.parse(await readFile(new URL('../catalog/relevance.json', import.meta.url), 'utf8')) as Judged[]
  const items = JSON.parse(await readFile(demoCatalogFile, 'utf8')) as unknown[]
  const scores: Record<string, Record<string, number[]>> = {}
  const note = (kind: string, mode: string, value: number) => {
    ((scores[mode] ??= {})[kind] ??= []).push(value)
    ;((scores[mode] ??= {}).all ??= []).push(value)
  }
  const importRates: Record<string, number> = {}
  for (const [e, { name, id, load }] of EMBEDDERS.entries()) {
    const dir = await mkdtemp(join(tmpdir(), 'chatsearch-relevance-'))
    const embedder = await load()
    const engine = new EmbeddedEngine(dir, { id, dimensions: embedder.dimensions })
    try {
      const index = await engine.index('relevance')
      process.stderr.write(`indexing ${items.length} demo items with the ${name} embedder…\n`)
      const started = performance.now()
      await ingestDocuments(index, items, embedder)
      importRates[name] = Math.round(items.length / ((performance.now() - started) / 1000))
      for (const j of judged) {
        const q = processQuery(j.query)
        const filter = j.filters === undefined ? null : parseFilter(j.filters)
        const base = { q, filter, facets: [], limit: K, offset: 0 }
        // Keyword search does not depend on the embedder: measured once.
        if (e === 0) note(j.kind, 'keyword', ndcg((await index.search(base)).hits.map((h) => h.id), j.relevant))
        const [vector] = await embedder.embed([await index.correct(q)])
        for (const ratio of RATIOS) {
          const hybrid = await index.search({ ...base, hybrid: { semanticRatio: ratio, vector: vector! } })
          note(j.kind, `hybrid ${ratio} ${name}`, ndcg(hybrid.hits.map((h) => h.id), j.relevant))
        }
      }
    } finally {
      await engine.close()
      await rm(dir, { recursive: true, force: true })
    }
  }

  const kinds = ['exact', 'typo', 'filtered', 'paraphrase', 'all']
  const modes = Object.keys(scores)
  const counts = Object.fromEntries(kinds.map((k) => [k, scores.keyword?.[k]?.length ?? 0]))
  process.stdout.write(`\nnDCG@${K} over ${judged.length} judged queries of the demo catalog (${items.length} items)\n\n`)
  process.stdout.write(`${'mode'.padEnd(22)}${kinds.map((k) => `${k} (${counts[k]})`.padStart(17)).join('')}\n`)
  const table: Record<string, Record<string, number>> = {}
  for (const mode of modes) {
    table[mode] = Object.fromEntries(kinds.map((k) => [k, round(mean(scores[mode]![k] ?? []))]))
    process.stdout.write(`${mode.padEnd(22)}${kinds.map((k) => table[mode]![k]!.toFixed(3).padStart(17)).join('')}\n`)
  }
  process.stdout.write(`\nimport with embeddings (ingestDocuments, all ${items.length} items in one call; USE-lite on its worker thread, static on this one): ` +
    `${Object.entries(importRates).map(([name, rate]) => `${name} ${rate} items/s`).join(', ')}\n`)
  const hybrid = table[`hybrid 0.7 ${EMBEDDERS[0]!.name}`]!
  const verdict = {
    hybridBeatsKeywordOnParaphrase: hybrid.paraphrase! > table.keyword!.paraphrase!,
    hybridKeepsExact: hybrid.exact! >= table.keyword!.exact! - 0.02
  }
  process.stdout.write(`hybrid (ratio 0.7 with the ${EMBEDDERS[0]!.name} embedder, the defaults) beats keyword on paraphrases: ${verdict.hybridBeatsKeywordOnParaphrase ? 'yes' : 'NO'}; ` +
    `does not lose on exact queries (within 0.02): ${verdict.hybridKeepsExact ? 'yes' : 'NO'}\n`)
  process.stdout.write(JSON.stringify({ benchmark: 'relevance', k: K, queries: judged.length, items: items.length, ndcg: table, importItemsPerSecond: importRates, ...verdict }) + '\n')
}

await main()
