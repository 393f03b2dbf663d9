// What the soak's shoppers type, drawn with a seeded generator from the words of the catalog the
// service holds: messages to the assistant, searches, partial terms, help questions, filters.
import { quoteValue } from '@chatsearch/filter'

/** mulberry32: a small seeded generator, so that a run's mix, ids and texts repeat. */
export function seeded (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Random = () => number

export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!

/** A catalog item as the search service returns it. */
export interface Item {
  id: string
  title: string
  description?: string
  price?: number
  category?: string
  brand?: string
  color?: string
  in_stock?: boolean
  rating?: number
  tags?: string[]
}

const greetings = ['hi', 'hello there', 'Hello! Anyone around to help me?', 'good morning', 'hey', 'Hi, quick question']
const helpQuestions = [
  'How long does shipping take?',
  'Do you ship to Canada?',
  'how much is express delivery',
  'Can I return an item I bought on sale?',
  'What is your return policy?',
  'How do I get a refund?',
  'Which payment methods do you accept?',
  'Can I pay with PayPal?',
  'Is it safe to pay by card on your site?',
  'How long is the warranty?',
  'My blender broke after a month, is that covered by the warranty?',
  'Can I change my delivery address after ordering?',
  'Do you offer gift wrapping?',
  'where is my order'
]
const others = [
  'thanks, that is all for now',
  'ok',
  'great, thank you!',
  'My package arrived damaged and the box was crushed.',
  'I want a refund for my last order',
  'Please cancel my order 48213, I ordered the wrong color.',
  'lol my cat just walked over the keyboard'
]
const knowledgeTerms = ['return policy', 'shipping times', 'express delivery', 'warranty claim', 'payment methods', 'refund', 'international shipping', 'gift card']

const words = (text: string) => text.toLowerCase().match(/[a-z]{3,}/g) ?? []

/** The vocabulary of a catalog, and the texts built from it. */
export class Texts {
  readonly #items: Item[]
  readonly #words: string[]
  readonly #categories: string[]
  readonly #brands: string[]

  constructor (items: Item[]) {
    if (items.length === 0) throw new Error('the catalog is empty: nothing to build searches from')
    this.#items = items
    this.#words = [...new Set(items.flatMap((i) => words(i.title)))].filter((w) => w.length >= 4)
    this.#categories = [...new Set(items.flatMap((i) => i.category ?? []))]
    this.#brands = [...new Set(items.flatMap((i) => i.brand ?? []))]
  }

  item (r: Random): Item {
    return pick(r, this.#items)
  }

  /** The product a title names: its last word ("Boots", "Pan"). */
  #noun (item: Item): string {
    return words(item.title).at(-1) ?? 'item'
  }

  /** A message to the assistant: product questions mostly, help questions, greetings and the rest. */
  message (r: Random): string {
    const kind = r()
    if (kind < 0.1) return pick(r, greetings)
    if (kind < 0.35) return pick(r, helpQuestions)
    if (kind < 0.45) return pick(r, others)
    const item = this.item(r)
    const noun = this.#noun(item)
    const price = pick(r, [30, 50, 80, 100, 150, 250])
    switch (Math.floor(r() * 6)) {
      case 0: return `Do you have ${noun}s from ${item.brand ?? 'your own brand'}?`
      case 1: return `Show me ${(item.category ?? noun).toLowerCase()} under ${price} dollars`
      case 2: return `Is the ${item.title} in stock?`
      case 3: return `I'm looking for a ${(item.color ?? 'black').toLowerCase()} ${noun}, any suggestions?`
      case 4: return `What is the cheapest ${noun} you sell?`
      default: return `Which is better, the ${item.title} or the ${this.item(r).title}?`
    }
  }

  /** A keyword search: words of a title, a brand and a product, or a word with a typo. */
  searchTerm (r: Random): string {
    const item = this.item(r)
    const titleWords = words(item.title)
    switch (Math.floor(r() * 5)) {
      case 0: return pick(r, this.#words)
      case 1: return titleWords.slice(-2).join(' ')
      case 2: return `${(item.brand ?? '').toLowerCase()} ${this.#noun(item)}`.trim()
      case 3: {
        const word = pick(r, this.#words)
        const at = 1 + Math.floor(r() * (word.length - 2))
        return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)
      }
      default: return `${pick(r, ['waterproof', 'lightweight', 'cheap', 'wireless', 'organic', 'compact'])} ${this.#noun(item)}`
    }
  }

  /** What a shopper has typed so far: the first 2 to 6 letters of a word, sometimes after a whole one. */
  partialTerm (r: Random): string {
    const word = pick(r, this.#words)
    const partial = word.slice(0, 2 + Math.floor(r() * Math.min(5, word.length - 1)))
    return r() < 0.25 ? `${pick(r, this.#words)} ${partial}` : partial
  }

  /** A sentence for hybrid search, which finds by meaning. */
  question (r: Random): string {
    const item = this.item(r)
    return pick(r, [
      `something to keep me dry on a ${this.#noun(item)} trip`,
      `gift for someone who likes ${(item.category ?? 'cooking').toLowerCase()}`,
      `${this.#noun(item)} for a small apartment`,
      `best ${this.#noun(item)} for beginners`,
      item.title
    ])
  }

  knowledgeQuery (r: Random): string {
    return r() < 0.7 ? pick(r, helpQuestions) : pick(r, knowledgeTerms)
  }

  /** A filter of the demo catalog's attributes; null for none. */
  filter (r: Random): string | null {
    switch (Math.floor(r() * 6)) {
      case 0: return `price < ${pick(r, [25, 50, 100, 150, 200, 300])} AND in_stock = true`
      case 1: return `category = ${quoteValue(pick(r, this.#categories))}`
      case 2: return `brand = ${quoteValue(pick(r, this.#brands))} OR rating >= 4.5`
      case 3: return `rating >= 4 AND price > ${pick(r, [10, 20, 40])}`
      case 4: return 'in_stock = true'
      default: return null
    }
  }

  /** A catalog item of the soak's own, from an item of the demo catalog. */
  newItem (r: Random, id: string): Item {
    const from = this.item(r)
    return { ...from, id, title: `${from.title} ${pick(r, ['Pro', 'Lite', 'Max', 'II', 'Plus'])}`, price: Math.round(r() * 30_000) / 100 + 5, in_stock: r() < 0.8 }
  }
}

/** The fields of a search hit that a catalog item is made of. */
export function asItem (hit: Record<string, unknown>): Item {
  const fields = ['id', 'title', 'description', 'price', 'category', 'brand', 'color', 'in_stock', 'rating', 'tags']
  return Object.fromEntries(fields.filter((f) => hit[f] !== undefined).map((f) => [f, hit[f]])) as unknown as Item
}

/** The attributes `filter` uses, each of which the index must allow in filters. */
export const FILTERED = ['price', 'in_stock', 'category', 'brand', 'rating']
