/**
 * The catalog's synonyms as the settings form shows and reads them: one line per key,
 * `phone: smartphone, mobile`. One-way, as the API takes them; mutual synonyms are two lines.
 */

export type Synonyms = Record<string, string[]>

/** The synonyms as lines of text, keys in the order the API answered them. */
export function synonymsText (synonyms: Synonyms): string {
  return Object.entries(synonyms).map(([key, alternatives]) => `${key}: ${alternatives.join(', ')}`).join('\n')
}

/**
 * The synonyms of the form's text, or what is wrong with it (line by line, as a person reads it).
 * Blank lines are skipped; a key written on two lines keeps the alternatives of both, each once.
 * The search service checks the rest (lengths, counts, words), and its message is shown as is.
 */
export function parseSynonyms (text: string): { synonyms: Synonyms } | { error: string } {
  // A Map: a key such as "__proto__" is a key like any other.
  const synonyms = new Map<string, string[]>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '') continue
    const colon = line.indexOf(':')
    const key = line.slice(0, colon).trim()
    const alternatives = line.slice(colon + 1).split(',').map((s) => s.trim()).filter((s) => s !== '')
    if (colon < 0 || key === '' || alternatives.length === 0) {
      return { error: `Synonyms, line ${i + 1}: write a word or phrase, a colon, then what may be found instead, separated by commas (phone: smartphone, mobile).` }
    }
    synonyms.set(key, [...new Set([...synonyms.get(key) ?? [], ...alternatives])])
  }
  return { synonyms: Object.fromEntries(synonyms) }
}
