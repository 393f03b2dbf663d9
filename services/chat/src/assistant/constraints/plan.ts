/**
 * The conversation around a message. A follow-up that names no product of its own ("and in black?",
 * "cheaper ones?", "any from Trailmark?", "in stock ones?") refines the previous search: its query and
 * constraints, with the new constraints laid over them. A message with product words of its own starts
 * afresh and carries nothing over.
 */
import type { CatalogShape, Constraints, SearchPlan } from './types.js'
import type { HistoryTurn } from '../conversation.js'
import { extractConstraints } from './extract.js'
import { toFilter } from './filter.js'
import { STRICT_END, STRICT_START, keywords, normalise, tidy } from './text.js'
import { CHEAPER_TERMS, CHEAPEST_TERMS, POINTER_WORDS, termsSource } from '../lexicon.js'

/** What one user message asked for, once planned against the turns before it. */
interface PlannedTurn { rest: string, constraints: Constraints }

/** How far back a chain of follow-ups can reach. */
const MAX_TURNS = 8
/** A follow-up that points back ("waterproof ones", "is it a 2-person one?") may add this many words. */
const MAX_ADDED_WORDS = 3
const POINTER = new RegExp(`${STRICT_START}(?:${POINTER_WORDS})${STRICT_END}`, 'iu')
/** A lower price than before, or the lowest: "cheaper" with no number lowers the last cap (merge). */
const CHEAPER = new RegExp(`${STRICT_START}(?:${termsSource([...CHEAPER_TERMS, ...CHEAPEST_TERMS])})${STRICT_END}`, 'iu')

function isRefinement (message: string, rest: string): boolean {
  const words = rest === '' ? 0 : rest.split(' ').length
  return words === 0 || (words <= MAX_ADDED_WORDS && POINTER.test(normalise(message)))
}

/** New constraints win attribute by attribute; a new price replaces both old bounds. */
function merge (previous: Constraints, next: Constraints, cheaper: boolean): Constraints {
  const pick = (a: string[], b: string[]) => a.length > 0 ? a : b
  const merged: Constraints = {
    brands: pick(next.brands, previous.brands),
    categories: pick(next.categories, previous.categories),
    colors: pick(next.colors, previous.colors)
  }
  const price = next.priceMin !== undefined || next.priceMax !== undefined ? next : previous
  if (price.priceMin !== undefined) merged.priceMin = price.priceMin
  if (price.priceMax !== undefined) merged.priceMax = price.priceMax
  // "cheaper" with no number: strictly below the last cap; without a cap there is nothing to lower
  if (cheaper && price === previous && merged.priceMax !== undefined) merged.priceMax = Math.round(merged.priceMax * 100 - 1) / 100
  const inStock = next.inStock ?? previous.inStock
  if (inStock !== undefined) merged.inStock = inStock
  const minRating = next.minRating ?? previous.minRating
  if (minRating !== undefined) merged.minRating = minRating
  const order = next.order ?? previous.order
  if (order !== undefined) merged.order = order
  return merged
}

function planTurn (message: string, previous: PlannedTurn | undefined, shape: CatalogShape): PlannedTurn {
  const { constraints, rest } = extractConstraints(message, shape)
  if (previous === undefined || !isRefinement(message, rest)) return { rest, constraints }
  return {
    rest: [previous.rest, rest].filter((s) => s !== '').join(' '),
    constraints: merge(previous.constraints, constraints, CHEAPER.test(normalise(message)))
  }
}

/** The user's earlier messages, oldest first, without the new one if the caller already stored it. */
function earlierUserMessages (message: string, history: HistoryTurn[]): string[] {
  const users = history.filter((turn) => turn.role === 'user').map((turn) => turn.content)
  const last = users[users.length - 1]
  if (last !== undefined && normalise(last) === normalise(message)) users.pop()
  return users.slice(-MAX_TURNS)
}

/**
 * The search for `message` in its conversation. The query is the message's product words; when none
 * are left, a single brand stands in (its items carry the name), else the query stays empty and the
 * filter browses. A plan never has neither: then the tidied message itself is the query.
 */
export function planSearch (message: string, history: HistoryTurn[], shape: CatalogShape): SearchPlan {
  let previous: PlannedTurn | undefined
  for (const earlier of earlierUserMessages(message, history)) previous = planTurn(earlier, previous, shape)
  const { rest, constraints } = planTurn(message, previous, shape)
  const filter = toFilter(constraints, shape)
  let query = rest !== '' ? keywords(rest) : constraints.brands.length === 1 ? constraints.brands[0] as string : ''
  if (query === '' && filter === undefined) query = keywords(tidy(normalise(message)))
  return filter === undefined ? { query, constraints } : { query, filter, constraints }
}
