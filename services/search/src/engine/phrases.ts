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
