import type { Citation, Message } from '@chatsearch/contracts'
import { normalise } from './constraints/text.js'
import { contentWords } from './words.js'
import { ALL, ASKING_OR_POINTING, BOTH, COMPARING, FIELD_WORDS, HIGHER_PRICE, LOWER_PRICE, NUMBERS, ONE, ORDINAL, ORDINALS, PLAIN_COLORS, REFINEMENT, BETTER_RATED, SPAN } from './lexicon.js'

/**
 * Follow-ups that point at items the assistant named before ("how much is the third one?", "is it
 * in stock?", "which of these two is better rated?"): resolved from the citations of the latest
 * reply that cited items, never from a new search, so the answer is about the item the shopper means.
 */
export interface Reference {
  /** The items meant, as the earlier reply cited them (in its order). */
  items: Citation[]
  /** The fields asked about (catalog attribute names), in the order asked; empty: the shopper asks about the items in general. */
  fields: string[]
  /** Words the shopper asks about that name no field ("is it waterproof?"): looked for in the item's own text. */
  features: string[]
  /** Which of them is better, cheaper…: the compared field decides. */
  compare?: { field: string, best: 'lowest' | 'highest' }
}

/** A pointer the shopper used that fits more than one earlier item: ask which. */
export interface Ambiguous { ambiguous: Citation[] }

/** A follow-up about earlier items is short; a longer message is a new subject. */
const MAX_WORDS = 14

/** The items each earlier reply cited, newest reply first (replies citing no item left out). */
export function citedLists (history: Message[]): Citation[][] {
  const lists: Citation[][] = []
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!
    if (m.role !== 'assistant') continue
    const items = (m.citations ?? []).filter((c) => c.source === 'catalog')
    if (items.length > 0) lists.push(items)
  }
  return lists
}

/** Of a title, the share of its words a message must hold to name it, and the fewest words that can. */
const NAMED_SHARE = 0.75
const NAMED_MIN_WORDS = 2

/**
 * The items of the earlier replies (the latest lists first) that the message names by their title:
 * most of a title's words, two at least, are in the message.
 */
function namedItems (text: string, lists: Citation[][]): Citation[] {
  const words = new Set(contentWords(text))
  const named: Citation[] = []
  for (const list of lists.slice(0, 3)) {
    for (const c of list) {
      const title = contentWords(c.title ?? '')
      const held = title.filter((w) => words.has(w)).length
      if (title.length >= NAMED_MIN_WORDS && held >= NAMED_MIN_WORDS && held / title.length >= NAMED_SHARE && !named.some((n) => n.reference === c.reference)) named.push(c)
    }
  }
  return named
}

/**
 * Of the several items the latest list shows, the one the shopper asked for: the only one whose
 * title holds every word of what the message before that list asked ("have you got a dry bag?", then
 * "how does it close?": the dry bag, not the backpacks shown beside it). Undefined when none or
 * several do.
 */
function askedItem (latest: Citation[], history: Message[]): Citation | undefined {
  const at = history.findLastIndex((m) => m.role === 'assistant' && (m.citations ?? []).some((c) => c.source === 'catalog'))
  const asked = history.slice(0, Math.max(0, at)).findLast((m) => m.role === 'user')
  const wanted = asked === undefined ? [] : contentWords(asked.content).filter((w) => !ASKING_OR_POINTING.has(w))
  if (wanted.length === 0) return undefined
  const holding = latest.filter((c) => { const title = new Set(contentWords(c.title ?? '')); return wanted.every((w) => title.has(w)) })
  return holding.length === 1 ? holding[0] : undefined
}

function fieldsOf (text: string): string[] {
  return FIELD_WORDS.filter(([re]) => re.test(text)).map(([, field]) => field)
}

function comparisonOf (text: string, fields: string[]): Reference['compare'] {
  if (LOWER_PRICE.test(text)) return { field: 'price', best: 'lowest' }
  if (HIGHER_PRICE.test(text)) return { field: 'price', best: 'highest' }
  if (BETTER_RATED.test(text)) return { field: 'rating', best: 'highest' }
  if (COMPARING.test(text) && fields.length > 0) {
    const field = fields[0]!
    if (field === 'price') return { field, best: 'lowest' }
    if (field === 'rating') return { field, best: 'highest' }
  }
  return undefined
}

/** The places of a span of `n` at one end of a list, from 0; at the last end counted back (-1 the last). */
function places (end: 'first' | 'last', n: number): number[] {
  return Array.from({ length: n }, (_, i) => end === 'first' ? i : i - n)
}

/**
 * The earlier items `message` points at, and what it asks of them; `Ambiguous` when "it" could be
 * any of several; undefined when the message does not point back (a new subject, a refinement such
 * as "in black?" that a new search answers).
 */
export function resolveReference (message: string, history: Message[]): Reference | Ambiguous | undefined {
  const lists = citedLists(history)
  if (lists.length === 0) return undefined
  const text = normalise(message).toLowerCase().replace(/[’']/g, "'")
  if (text.split(' ').length > MAX_WORDS) return undefined

  // "The second one", "these two" point into the latest list (a reply that cited several items,
  // even if a reply about one of them came since); "it" points at what the latest reply cited.
  const latest = lists[0]!
  // "the first two" is a span of the list, not its first item: the span's places, its words no ordinal.
  const span = SPAN.exec(text)
  const spanned = span === null ? [] : places(span[1] === 'last' ? 'last' : 'first', Number(NUMBERS[span[2]!] ?? span[2]))
  const ordinals = [...spanned, ...[...(span === null ? text : text.replace(span[0], ' ')).matchAll(ORDINAL)].map((m) => m[1] !== undefined ? ORDINALS[m[1]]! : Number(m[2]) - 1)]
  const needed = Math.max(2, ...ordinals.map((i) => i < 0 ? -i : i + 1))
  const earlier = lists.find((l) => l.length >= needed) ?? latest
  const picked: number[] = []
  for (const index of ordinals) {
    const resolved = index < 0 ? earlier.length + index : index
    if (resolved >= 0 && resolved < earlier.length && !picked.includes(resolved)) picked.push(resolved)
  }
  const fields = fieldsOf(text)
  // An item named by its title ("what's the price of the Hi-Top Basketball Shoe?"): its words are not features.
  const named = namedItems(text, lists)
  const titleWords = new Set(named.flatMap((c) => contentWords(c.title ?? '')))
  const words = contentWords(text).filter((w) => !ASKING_OR_POINTING.has(w) && !/^\d+$/.test(w) && !titleWords.has(w))
  // "does it come in black?" asks its colour ("in black?" alone is a new search, in black).
  const pointsAt = named.length > 0 || ordinals.length > 0 || ONE.test(text)
  if (pointsAt && words.some((w) => PLAIN_COLORS.has(w)) && !fields.includes('color')) fields.push('color')
  const features = words.filter((w) => !PLAIN_COLORS.has(w))
  // Words of its own beyond a feature or two: a new subject ("is the first tent waterproof?" stays, "do you have kayaks" goes).
  if (features.length > 2) return undefined

  let items: Citation[]
  if (named.length > 0 && (fields.length > 0 || features.length > 0 || comparisonOf(text, fields) !== undefined)) items = named
  else if (picked.length > 0) items = picked.map((i) => earlier[i]!)
  else if (BOTH.test(text) && earlier.length >= 2) items = earlier.slice(0, 2)
  else if (ALL.test(text) && earlier.length >= 2 && (fields.length > 0 || comparisonOf(text, fields) !== undefined)) items = earlier
  else if (/\bwhich\b/.test(text) && earlier.length >= 2 && comparisonOf(text, fields) !== undefined) items = earlier
  // "is it in stock?", "and the price?": the one item of the last reply, or a question back when it named several.
  else if ((ONE.test(text) && (fields.length > 0 || features.length > 0)) || (fields.length > 0 && features.length === 0 && text.split(' ').length <= 5 && !REFINEMENT.test(text))) {
    const only = latest.length > 1 ? askedItem(latest, history) : undefined
    if (latest.length > 1 && only === undefined) return { ambiguous: latest }
    items = only === undefined ? latest : [only]
  } else return undefined

  const compare = items.length >= 2 ? comparisonOf(text, fields) : undefined
  return {
    items,
    fields: compare !== undefined && !fields.includes(compare.field) ? [compare.field, ...fields] : fields,
    features,
    ...(compare === undefined ? {} : { compare })
  }
}
