/** Attributes whose values make good completions: short names people type. */
export const PHRASE_ATTRIBUTES: readonly string[] = ['title', 'name', 'brand', 'category', 'categories', 'type', 'tags']
const MAX_PHRASE = 80

/** The catalog phrases a document offers to autocomplete (both engines count them per item). */
export function suggestionPhrases (document: Record<string, unknown>): string[] {
  const phrases = new Set<string>()
  for (const attr of PHRASE_ATTRIBUTES) {
    const value = document[attr]
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_PHRASE) phrases.add(v.trim())
    }
  }
  return [...phrases]
}

/** A search counts five times a catalog phrase towards a completion's weight, on both engines. */
export const SEARCH_WEIGHT = 5

/** A completion of a partial term, as both engines rank them. */
export interface Completion {
  /** The folded text: one completion per key. */
  key: string
  /** What autocomplete returns: a phrase as an item wrote it, or a search or a term as folded. */
  text: string
  /**
   * How wanted it is: the items carrying the phrase plus SEARCH_WEIGHT per search for it that
   * found something (the embedded engine weighs an indexed term with the items holding it).
   */
  weight: number
  /** Typos between the term typed and the completion (0: it starts with the term). */
  typos: number
}

/** Code point order, which is SQLite's BINARY order of the same strings (UTF-8), unlike `<` on UTF-16. */
export function compareCodePoints (a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length;) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x - y
    i += x > 0xffff ? 2 : 1
  }
  return a.length - b.length
}

/**
 * The order of suggestions, the same on both engines: fewest typos, then the heaviest, then by key.
 * It is total, so a page (offset, limit) is a slice of one list.
 */
export function compareCompletions (a: Completion, b: Completion): number {
  return a.typos - b.typos || b.weight - a.weight || compareCodePoints(a.key, b.key)
}
