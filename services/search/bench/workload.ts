// The search benchmark's workload: seeded query lists drawn from the catalog generator's vocabulary,
// the settings every benchmark index gets, the product type of an item (to lend it an embedding),
// and the small statistics helpers the report uses.
import { categories } from '../catalog/data.js'
import { mulberry32, type Product } from '../catalog/generate.js'
import type { Document, IndexSettings } from '../src/engine/port.js'
import { inferSettings } from '../src/engine/settings.js'
import { FTS_PREFIXES } from '../src/engines/embedded/database.js'

export const SEED = 42
export const BATCH = 1000
export const FACETS = ['brand', 'category', 'color', 'in_stock', 'tags']
/** Filters of the "keyword + filters + facets" and "browse + filters + facets" cases, in turn. */
export const FILTERS = [50, 100, 150, 200, 300, 500].map((p) => `price < ${p} AND in_stock = true`)
export const LIMIT = 20
export const SUGGEST_LIMIT = 10
export const EMBEDDER = { id: 'use-lite:512', dimensions: 512 }
export const PROJECT = 'bench'
/** Queries per list; a case runs each once (fewer when its time budget runs out). */
export const QUERY_COUNT = 200
/** What the `ready` file of a cached bench index says: one of another layout is built again. */
export const builtMark = (size: number) => `${size} items, fts prefix='${FTS_PREFIXES}'`
export const CASES = ['keyword', 'typo', 'kwFilterFacets', 'browseFilterFacets', 'hybrid', 'autocomplete'] as const
export type CaseName = typeof CASES[number]

/**
 * The settings inferred from the first batch, as the engine would infer them, with `tags` made
 * facetable too: inference leaves it out (401 distinct tags, over its 200 limit).
 */
export function benchSettings (firstBatch: Product[]): IndexSettings {
  const inferred = inferSettings(firstBatch as unknown as Document[])
  const facetable = [...new Set([...inferred.facetableAttributes, ...FACETS])]
  const filterable = [...new Set([...inferred.filterableAttributes, ...FACETS, 'price'])]
  return { ...inferred, filterableAttributes: filterable, facetableAttributes: facetable }
}

const lower = (s: string) => s.toLowerCase()
const lastWord = (s: string) => s.split(' ').at(-1)!

function pick<T> (r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!
}

const pickLetter = (r: () => number, letters: string): string => letters[Math.floor(r() * letters.length)]!

/**
 * `count` keyword queries of 2–3 words a shopper might type: a product type ("hiking boot"), a
 * feature or colour with a type ("waterproof boot", "red frying pan"), a brand with a type
 * ("trailmark boot").
 */
export function keywordQueries (count: number, seed = 7): string[] {
  const r = mulberry32(seed)
  const out: string[] = []
  const seen = new Set<string>()
  while (out.length < count) {
    const category = pick(r, categories)
    const type = pick(r, category.types)
    const noun = lower(lastWord(type.name))
    const features = Object.values(category.features).flatMap((f) => f.t === undefined ? [] : [lower(f.t)])
    let q: string
    switch (Math.floor(r() * 4)) {
      case 0: q = lower(type.name); break
      case 1: q = features.length > 0 ? `${pick(r, features)} ${noun}` : lower(type.name); break
      case 2: q = `${lower(pick(r, type.colors ?? ['black']))} ${lower(type.name)}`; break
      default: q = `${lower(pick(r, category.brands)[0])} ${noun}`
    }
    q = q.split(/\s+/).slice(0, 3).join(' ')
    if (q.split(' ').length < 2 || seen.has(q)) continue
    seen.add(q)
    out.push(q)
  }
  return out
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/** One typo (a letter dropped, doubled, swapped with its neighbour or replaced) inside the word. */
export function misspell (word: string, r: () => number): string {
  const i = 1 + Math.floor(r() * (word.length - 2))
  switch (Math.floor(r() * 4)) {
    case 0: return word.slice(0, i) + word.slice(i + 1)
    case 1: return word.slice(0, i) + word[i]! + word.slice(i)
    case 2: return word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2)
    default: {
      let c = pickLetter(r, LETTERS)
      while (c === word[i]) c = pickLetter(r, LETTERS)
      return word.slice(0, i) + c + word.slice(i + 1)
    }
  }
}

/** The keyword queries with one word of 5 letters or more misspelled (queries without one are skipped). */
export function typoQueries (count: number, seed = 11): string[] {
  const r = mulberry32(seed)
  const out: string[] = []
  for (const q of keywordQueries(count * 3, seed + 1)) {
    const words = q.split(' ')
    const long = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5 && /^[a-z]+$/.test(w))
    if (long.length === 0) continue
    const [word, i] = pick(r, long)
    words[i] = misspell(word, r)
    out.push(words.join(' '))
    if (out.length === count) break
  }
  return out
}

/** Prefixes of 2–4 letters of brand, type and feature words, as typed into a search box. */
export function prefixes (count: number, seed = 13): string[] {
  const r = mulberry32(seed)
  const words = [...new Set(categories.flatMap((c) => [
    ...c.brands.map(([b]) => b),
    ...c.types.flatMap((t) => t.name.split(' ')),
    ...Object.values(c.features).flatMap((f) => f.t === undefined ? [] : f.t.split(' '))
  ]).map(lower).filter((w) => /^[a-z]{4,}$/.test(w)))]
  return Array.from({ length: count }, () => {
    const word = pick(r, words)
    return word.slice(0, 2 + Math.floor(r() * 3))
  })
}

const typesByCategory = new Map(categories.map((c) => [c.name, [...c.types].sort((a, b) => b.name.length - a.name.length)]))

/** "Category|Type" of a generated product, read back from its title (which ends with the type name). */
export function productType (p: Product): string {
  const title = p.title.replace(/\s*\([^)]*\)$/, '')
  const type = typesByCategory.get(p.category)?.find((t) => title.endsWith(t.name))
  return `${p.category}|${type?.name ?? '?'}`
}

export { percentile } from '@chatsearch/testkit/load'

export const round = (v: number, digits = 2): number | null => Number.isFinite(v) ? Number(v.toFixed(digits)) : null
