/**
 * Deterministic generator of realistic shop products for the search service's demo and benchmarks.
 *
 * Item i of a seed depends only on (seed, i): it is drawn from its own small PRNG, so a catalog of
 * 1,200 items is a prefix of one of 200,000 with the same seed, and items can be streamed.
 */
import { categories, SIZE_TABLES } from './data.js'
import type { CategoryDef, FeatureDef, SizeKind, SpecOption, TypeDef } from './data.js'

export interface Product {
  id: string
  title: string
  description: string
  price: number
  category: string
  brand: string
  in_stock: boolean
  rating: number
  tags: string[]
  color?: string
  sizes?: string[]
  created_at?: string
}

/** The top-level categories, in a fixed order. */
export const categoryNames: readonly string[] = categories.map((c) => c.name)

type Rng = () => number

/** mulberry32: a 32-bit PRNG, uniform in [0, 1). */
export function mulberry32 (seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** murmur3's finaliser: spreads nearby integers over all 32 bits. */
function fmix32 (h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85EBCA6B)
  h ^= h >>> 13
  h = Math.imul(h, 0xC2B2AE35)
  h ^= h >>> 16
  return h >>> 0
}

function itemSeed (seed: number, index: number): number {
  return fmix32(Math.imul(fmix32(seed >>> 0) ^ 0x9E3779B9, 0x27D4EB2F) ^ fmix32(index + 0x632BE5AB))
}

function pick<T> (r: Rng, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)] as T
}

interface Weighted<T> { items: readonly T[], cumulative: readonly number[], total: number }

function weighted<T> (items: readonly T[], weightOf: (item: T) => number): Weighted<T> {
  const cumulative: number[] = []
  let total = 0
  for (const item of items) {
    total += weightOf(item)
    cumulative.push(total)
  }
  return { items, cumulative, total }
}

function pickWeighted<T> (r: Rng, w: Weighted<T>): T {
  const x = r() * w.total
  let i = 0
  while (i < w.cumulative.length - 1 && (w.cumulative[i] as number) <= x) i++
  return w.items[i] as T
}

interface PreparedCategory {
  def: CategoryDef
  types: Weighted<TypeDef>
  brandsOf: Map<TypeDef, ReadonlyArray<readonly [string, number]>>
  modelsOf: Map<TypeDef, readonly string[]>
}

const wordsOf = (s: string) => s.toLowerCase().split(/[\s-]+/).filter((w) => w.length >= 4)

/** Model names that do not echo the type name ("Gravel Gravel Bike", "Chrono Chronograph"). */
function modelsFor (def: CategoryDef, type: TypeDef): readonly string[] {
  const typeWords = wordsOf(type.name)
  const models = type.models ?? def.models
  const fitting = models.filter((m) => !wordsOf(m).some((w) => typeWords.some((t) => t.startsWith(w) || w.startsWith(t))))
  return fitting.length > 0 ? fitting : models
}

const prepared: Weighted<PreparedCategory> = weighted(categories.map((def) => {
  const brandsOf = new Map<TypeDef, ReadonlyArray<readonly [string, number]>>()
  const modelsOf = new Map<TypeDef, readonly string[]>()
  for (const type of def.types) {
    const only = type.brands
    brandsOf.set(type, only === undefined ? def.brands : def.brands.filter(([name]) => only.includes(name)))
    modelsOf.set(type, modelsFor(def, type))
  }
  return { def, types: weighted(def.types, (t) => t.weight ?? 1), brandsOf, modelsOf }
}), (c) => c.def.weight)

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)
const an = (word: string): string => /^([aeiou]|heir|hour)/i.test(word) ? 'an' : 'a'

const SHOE_SIZES: Readonly<Record<'men' | 'women' | 'unisex', readonly string[]>> = {
  men: halfSizes(7, 13),
  women: halfSizes(5, 11),
  unisex: halfSizes(5, 13)
}

function halfSizes (from: number, to: number): string[] {
  const sizes: string[] = []
  for (let s = from; s <= to; s += 0.5) sizes.push(String(s))
  return sizes
}

function sizesOf (r: Rng, kind: SizeKind, audience: 'men' | 'women' | 'unisex'): string[] {
  const table = kind === 'shoe' ? SHOE_SIZES[audience] : SIZE_TABLES[kind]
  if (table.length <= 3) return r() < 0.8 ? table.slice() : table.slice(0, table.length - 1)
  const start = Math.floor(r() * table.length * 0.3)
  const end = table.length - Math.floor(r() * table.length * 0.25)
  return table.slice(start, Math.max(end, start + 2))
}

/** Distinct, compatible feature keys, drawn from a list in which a repeated key is more likely. */
function pickFeatures (r: Rng, features: Readonly<Record<string, FeatureDef>>, keys: readonly string[], count: number): string[] {
  const chosen: string[] = []
  const clashes = (a: string, b: string) => (features[a]?.excludes?.includes(b) ?? false) || (features[b]?.excludes?.includes(a) ?? false)
  for (let attempt = 0; attempt < count * 4 && chosen.length < count && keys.length > 0; attempt++) {
    const key = pick(r, keys)
    if (!chosen.includes(key) && !chosen.some((other) => clashes(key, other))) chosen.push(key)
  }
  return chosen
}

function featureCount (r: Rng): number {
  const u = r()
  return u < 0.12 ? 0 : u < 0.5 ? 1 : u < 0.88 ? 2 : 3
}

function priceOf (r: Rng, type: TypeDef, tier: number, factor: number, specFactor: number): number {
  const [lo, hi] = type.price
  let p = (lo + (hi - lo) * Math.pow(r(), 1.4)) * tier * factor
  // A spec (size, capacity) moves the price, but only big packs of consumables leave the band.
  p = Math.min(Math.max(p, lo * 0.75), hi * 1.25) * specFactor
  p = Math.min(p, hi * Math.max(1.4, specFactor))
  let cents: number
  if (p >= 500) {
    const tens = Math.max(1, Math.round(p / 10))
    cents = r() < 0.75 ? tens * 1000 - 1 : tens * 1000
  } else {
    const whole = Math.max(1, Math.floor(p))
    const u = r()
    const end = p < 10 ? (u < 0.6 ? 99 : 49) : u < 0.55 ? 99 : u < 0.7 ? 95 : u < 0.85 ? 0 : u < 0.95 ? 49 : 50
    cents = whole * 100 + end
  }
  return cents / 100
}

function ratingOf (r: Rng, tier: number): number {
  let x: number
  if (r() < 0.07) {
    x = 1 + r() * 2.8
  } else {
    const normal = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())
    x = 4.35 + (tier - 1) * 0.4 + normal * 0.38
  }
  return Math.round(Math.min(5, Math.max(1, x)) * 10) / 10
}

const START_MS = Date.UTC(2021, 0, 1)
const SPAN_S = (Date.UTC(2025, 5, 30) - START_MS) / 1000

interface Story {
  brand: string
  model: string
  type: TypeDef
  category: CategoryDef
  clauses: string[]
  material: string | undefined
}

function describe (r: Rng, s: Story): string {
  const syn = pick(r, s.type.syn)
  const adjectives = s.type.adjectives ?? s.category.adjectives
  const fresh = adjectives.filter((a) => !syn.includes(a))
  const adj = pick(r, fresh.length > 0 ? fresh : adjectives)
  const uses = s.type.uses
  const use = pick(r, uses)
  const others = uses.filter((u) => u !== use)
  const use2 = others.length > 0 ? pick(r, others) : undefined
  let used2 = false
  let usedMaterial = false
  let intro: string
  switch (Math.floor(r() * 6)) {
    case 0: intro = `${cap(an(adj))} ${adj} ${syn} for ${use}.`; break
    case 1: intro = `The ${s.brand} ${s.model} is ${an(adj)} ${adj} ${syn} made for ${use}.`; break
    case 2: intro = `Built for ${use}, the ${s.model} is ${s.brand}${s.brand.endsWith('s') ? "'" : "'s"} ${adj} ${syn}.`; break
    case 3: intro = `${s.brand} designed this ${adj} ${syn} for ${use}.`; break
    case 4:
      if (use2 !== undefined) {
        intro = `From ${use} to ${use2}, this ${adj} ${syn} handles it all.`
        used2 = true
      } else {
        intro = `${cap(an(adj))} ${adj} ${syn} for ${use}.`
      }
      break
    default: intro = `Meet the ${s.model}: ${an(adj)} ${adj} ${syn} for ${use}.`
  }

  const sentences = [intro]
  const u = r()
  const wanted = u < 0.15 ? 1 : u < 0.6 ? 2 : 3
  const clauses = s.clauses
  let c = 0
  const featureSentence = (): string | undefined => {
    if (c >= clauses.length) return undefined
    const first = clauses[c++] as string
    if (c < clauses.length && r() < 0.6) return `${cap(first)}, and ${clauses[c++] as string}.`
    return `${cap(first)}.`
  }
  const closer = (): string | undefined => {
    if (s.material !== undefined && !usedMaterial && (use2 === undefined || used2 || r() < 0.5)) {
      usedMaterial = true
      const m = s.material
      return pick(r, [`Built with ${m}.`, `It is built with ${m}.`, `It features ${m}.`])
    }
    if (use2 !== undefined && !used2) {
      used2 = true
      return pick(r, [`A dependable choice for ${use2}.`, `Ideal for ${use2}.`, `Also great for ${use2}.`])
    }
    return undefined
  }
  while (sentences.length < wanted) {
    const next = featureSentence() ?? closer()
    if (next === undefined) break
    sentences.push(next)
    if (sentences.length < wanted) {
      const last = closer() ?? featureSentence()
      if (last === undefined) break
      sentences.push(last)
    }
  }
  return sentences.join(' ')
}

/** Whether a feature's title word is already in the type name ("Conical Burr" and "Burr Coffee Grinder"). */
function repeats (featureTitle: string, typeName: string): boolean {
  const words = typeName.toLowerCase().split(/[\s-]+/)
  return featureTitle.toLowerCase().split(/[\s-]+/).some((w) => words.includes(w))
}

function idOf (index: number): string {
  return `sku-${String(index + 1).padStart(6, '0')}`
}

/** The product at position `index` of the catalog of `seed`. */
export function productAt (index: number, seed: number): Product {
  const r = mulberry32(itemSeed(seed, index))
  const category = pickWeighted(r, prepared)
  const def = category.def
  const type = pickWeighted(r, category.types)
  const [brand, tier] = pick(r, category.brandsOf.get(type) ?? def.brands)
  const model = pick(r, category.modelsOf.get(type) ?? def.models)

  const suffixes = type.suffixes ?? def.suffixes
  let suffix = suffixes.length > 0 && r() < 0.55 ? pick(r, suffixes) : undefined
  const keys = pickFeatures(r, def.features, type.features, featureCount(r))
  if (suffix === 'GTX') {
    if (!type.features.includes('waterproof')) suffix = undefined
    else if (!keys.includes('waterproof')) keys.unshift('waterproof')
  }

  let audience: 'men' | 'women' | 'unisex' = 'unisex'
  if (type.audience === true) {
    const a = r()
    audience = a < 0.45 ? 'men' : a < 0.9 ? 'women' : 'unisex'
  }

  const tags = new Set<string>([def.tag, ...type.tags])
  const clauses: string[] = []
  const titleWords: string[] = []
  let factor = 1
  for (const key of keys) {
    const feature = def.features[key] as FeatureDef
    factor *= feature.f ?? 1
    for (const tag of feature.tags) tags.add(tag)
    clauses.push(pick(r, feature.p))
    if (feature.t !== undefined && titleWords.length < 2 && r() < 0.8 && !repeats(feature.t, type.name)) titleWords.push(feature.t)
  }

  const before: string[] = []
  const after: string[] = []
  let specFactor = 1
  for (const group of type.spec ?? []) {
    const option: SpecOption = pick(r, group.options)
    specFactor *= option.f ?? 1
    for (const tag of option.tags ?? []) tags.add(tag)
    if (option.p !== undefined) clauses.splice(Math.floor(r() * (clauses.length + 1)), 0, option.p)
    if (option.t !== '') (group.at === 'before' ? before : after).push(option.t)
  }
  if (type.audience === true) tags.add(audience)

  const title = [
    brand,
    model,
    ...(suffix === undefined ? [] : [suffix]),
    ...(audience === 'men' ? ["Men's"] : audience === 'women' ? ["Women's"] : []),
    ...titleWords,
    ...before,
    type.name
  ].join(' ') + (after.length > 0 ? ` (${after.join(', ')})` : '')

  const material = type.materials !== undefined && r() < 0.7 ? pick(r, type.materials) : undefined
  const description = describe(r, { brand, model, type, category: def, clauses, material })
  const price = priceOf(r, type, tier, factor, specFactor)
  const rating = ratingOf(r, tier)
  const inStock = r() < 0.85
  const color = type.colors === undefined ? undefined : pick(r, type.colors)
  const sizes = type.sizes === undefined ? undefined : sizesOf(r, type.sizes, audience)
  const createdAt = new Date(START_MS + Math.floor(r() * SPAN_S) * 1000).toISOString()

  const product: Product = {
    id: idOf(index),
    title,
    description,
    price,
    category: def.name,
    brand,
    in_stock: inStock,
    rating,
    tags: [...tags]
  }
  if (color !== undefined) product.color = color
  if (sizes !== undefined) product.sizes = sizes
  product.created_at = createdAt
  return product
}

/** Streams `count` products of the catalog of `seed`. */
export function * productsOf (count: number, seed: number): Generator<Product> {
  for (let i = 0; i < count; i++) yield productAt(i, seed)
}

/** The first `count` products of the catalog of `seed`; the same arguments always give the same items. */
export function generateCatalog (count: number, seed: number): Product[] {
  const products = new Array<Product>(count)
  for (let i = 0; i < count; i++) products[i] = productAt(i, seed)
  return products
}
