import type { Citation } from '@chatsearch/contracts'
import type { CatalogItem, Reply } from './types.js'
import type { Reference } from './references.js'
import { contentWords } from './words.js'

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

/** Whether the item's own text (title, description, tags) holds the word, and the sentence that does. */
function feature (item: CatalogItem, word: string): string | undefined {
  const texts = [item.title, item.description, ...(Array.isArray(item.tags) ? item.tags : [])].filter((t): t is string => typeof t === 'string')
  for (const text of texts) {
    for (const sentence of text.split(/(?<=[.!?])\s+/)) if (contentWords(sentence).includes(word)) return sentence
  }
  return undefined
}

function describe (item: CatalogItem, name: string, ref: Reference): string {
  const lines: string[] = []
  const fields = ref.fields.length > 0 || ref.features.length > 0 ? ref.fields : ['price', 'in_stock', 'rating', 'brand']
  const said = fields.map((f) => clause(item, f))
  const known = said.filter((c): c is string => c !== undefined)
  if (known.length > 0) lines.push(`${name} ${known.join(', ')}.`)
  fields.forEach((f, i) => { if (said[i] === undefined) lines.push(`The catalog does not say ${FIELD_NAMES[f] ?? `its ${f.replace(/_/g, ' ')}`} for ${name}.`) })
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
