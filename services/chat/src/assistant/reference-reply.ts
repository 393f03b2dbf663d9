import type { Citation } from '@chatsearch/contracts'
import type { CatalogItem, Reply } from './types.js'
import type { Reference } from './references.js'
import { contentWords } from './words.js'
import { FIELD_WORDS, PLAIN_COLORS } from './lexicon.js'

const titleOf = (item: CatalogItem, cited: Citation) => typeof item.title === 'string' ? item.title : typeof item.name === 'string' ? item.name : cited.title ?? String(item.id)
const money = (value: number) => `$${value.toFixed(2)}`

/** What the catalog says of one field of an item, as a clause after its name; undefined when it holds nothing. */
function clause (item: CatalogItem, field: string): string | undefined {
  const value = item[field]
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return undefined
  switch (field) {
    case 'price': return typeof value === 'number' ? `costs ${money(value)}` : undefined
    case 'in_stock': return typeof value === 'boolean' ? (value ? 'is in stock' : 'is currently out of stock') : undefined
    case 'rating': return typeof value === 'number' ? `is rated ${value} out of 5` : undefined
    case 'brand': return `is made by ${String(value)}`
    case 'color': return `comes in ${Array.isArray(value) ? value.join(', ') : String(value)}`
    case 'sizes': return Array.isArray(value) ? `comes in sizes ${value.join(', ')}` : `comes in size ${String(value)}`
    case 'category': return `is in ${String(value)}`
    default: return `${field.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`
  }
}

const FIELD_NAMES: Record<string, string> = { price: 'its price', in_stock: 'whether it is in stock', rating: 'its rating', brand: 'its brand', color: 'its colour', sizes: 'its sizes', category: 'its category' }

/** The sentences of the item's own text: its title, description and tags. */
function itemSentences (item: CatalogItem): string[] {
  const texts = [item.title, item.description, ...(Array.isArray(item.tags) ? item.tags : [])].filter((t): t is string => typeof t === 'string')
  return texts.flatMap((text) => text.split(/(?<=[.!?])\s+/))
}

/** Whether the item's own text holds the word, and the sentence that does. */
function feature (item: CatalogItem, word: string): string | undefined {
  return itemSentences(item).find((sentence) => contentWords(sentence).includes(word))
}

/**
 * What a field the item has no attribute for may be told by in its text: its name ("colour",
 * "sizes"), and a colour by a colour's name ("in a bold red"). Only fields a description states as
 * well as an attribute would: a price, stock or rating in a text may be out of date.
 */
const FIELD_IN_TEXT: Record<string, (sentence: string) => boolean> = {
  color: (sentence) => fieldWords('color').test(sentence) || contentWords(sentence).some((w) => PLAIN_COLORS.has(w)),
  sizes: (sentence) => fieldWords('sizes').test(sentence)
}
function fieldWords (field: string): RegExp {
  return FIELD_WORDS.find(([, f]) => f === field)![0]
}

/** The sentence of the item's text that tells the field it has no attribute for, when one does. */
function fieldSentence (item: CatalogItem, field: string): string | undefined {
  const tells = FIELD_IN_TEXT[field]
  return tells === undefined ? undefined : itemSentences(item).find((sentence) => tells(sentence.toLowerCase()))
}

function describe (item: CatalogItem, name: string, ref: Reference): string {
  const lines: string[] = []
  const fields = ref.fields.length > 0 || ref.features.length > 0 ? ref.fields : ['price', 'in_stock', 'rating', 'brand']
  const said = fields.map((f) => clause(item, f))
  const known = said.filter((c): c is string => c !== undefined)
  if (known.length > 0) lines.push(`${name} ${known.join(', ')}.`)
  fields.forEach((f, i) => {
    if (said[i] !== undefined) return
    const what = FIELD_NAMES[f] ?? `its ${f.replace(/_/g, ' ')}`
    const told = fieldSentence(item, f)
    lines.push(told === undefined ? `The catalog does not say ${what} for ${name}.` : `The catalog does not list ${what} for ${name}, but its description says: "${told}"`)
  })
  for (const word of ref.features) {
    const sentence = feature(item, word)
    lines.push(sentence === undefined
      ? `The catalog's description of ${name} does not mention "${word}".`
      : `The catalog says of ${name}: "${sentence}"`)
  }
  if (ref.fields.length === 0 && ref.features.length === 0 && typeof item.description === 'string') lines.push(item.description)
  return lines.join(' ')
}

function comparison (ref: Required<Pick<Reference, 'compare'>>['compare'], named: Array<{ item: CatalogItem, name: string }>): string | undefined {
  const valued = named.filter(({ item }) => typeof item[ref.field] === 'number')
  if (valued.length < 2) return undefined
  const sorted = [...valued].sort((a, b) => (ref.best === 'lowest' ? 1 : -1) * ((a.item[ref.field] as number) - (b.item[ref.field] as number)))
  const top = sorted[0]!
  const tied = sorted.filter((n) => n.item[ref.field] === top.item[ref.field])
  const word = ref.field === 'price' ? (ref.best === 'lowest' ? 'cheaper' : 'more expensive') : 'better rated'
  if (tied.length === sorted.length) return `They are level on ${ref.field === 'price' ? 'price' : 'rating'}.`
  if (tied.length > 1) return `${tied.map((n) => n.name).join(' and ')} are ${word} than the others.`
  return `${top.name} is ${sorted.length === 2 ? word : word.replace(/^cheaper$/, 'the cheapest').replace(/^more expensive$/, 'the most expensive').replace(/^better rated$/, 'the best rated')}.`
}

/**
 * The answer to a follow-up about earlier items, from the items as the catalog holds them now:
 * the fields asked (or a short description), what the catalog does not say, and which of them is
 * better when asked. Items no longer in the catalog are said to be gone.
 */
export function referenceReply (ref: Reference, items: Array<CatalogItem | undefined>): Reply {
  const named = ref.items.flatMap((cited, i) => { const item = items[i]; return item === undefined ? [] : [{ item, name: titleOf(item, cited), cited }] })
  const gone = ref.items.filter((_, i) => items[i] === undefined).map((c) => `${c.title ?? c.reference} is no longer in the catalog.`)
  const lines = named.map(({ item, name }) => describe(item, name, ref))
  const verdict = ref.compare === undefined ? undefined : comparison(ref.compare, named)
  return {
    text: [...lines, ...(verdict === undefined ? [] : [verdict]), ...gone].join('\n'),
    citations: named.map(({ cited }) => cited)
  }
}

/** One short question back when "it" could be any of several items. */
export function clarifyingReply (items: Citation[]): Reply {
  const ordinals = ['first', 'second', 'third', 'fourth', 'fifth']
  const options = items.slice(0, 5).map((c, i) => `the ${ordinals[i]} (${c.title ?? c.reference})`)
  const list = options.length === 1 ? options[0] : `${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}`
  return { text: `Which one do you mean: ${list}?`, citations: items.slice(0, 5) }
}
