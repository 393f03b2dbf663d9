/** Text helpers shared by the extractors: normalisation, word-bounded patterns, filler and tidying (their word lists are in lexicon.ts). */
import { QUERY_EDGE, QUERY_FILLER, QUERY_FUNCTION_WORDS } from '../lexicon.js'

/** A term only matches where no letter or digit touches it ("Arc" is not in "architect"). */
export const START = '(?<![\\p{L}\\p{N}])'
export const END = '(?![\\p{L}\\p{N}])'
/** Stricter edges that also keep hyphenated and apostrophe compounds whole ("one" is not in "one-bag"). */
export const STRICT_START = "(?<![\\p{L}\\p{N}'-])"
export const STRICT_END = "(?![\\p{L}\\p{N}]|[-'][\\p{L}\\p{N}])"

/** One spelling for apostrophes, dashes and spaces, so the patterns need to know only one. */
export function normalise (text: string): string {
  return text.normalize('NFKC')
    .replace(/[‘’ʼ`´]/g, "'")
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
}

export function escapeRegExp (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The lookup key of a facet value or of the text that matched it: case, spaces, apostrophes and `&` ignored. */
export function termKey (text: string): string {
  return normalise(text).toLowerCase().replace(/'/g, '').replace(/\s*&\s*/g, ' and ').replace(/[\s-]+/g, ' ').trim()
}

/** A pattern for a phrase as written, allowing any spacing or a hyphen between words, `&` or "and", and a dropped apostrophe. */
export function phraseSource (phrase: string): string {
  return normalise(phrase).split(' ').map((word) => word === '&'
    ? '(?:&|and)'
    : escapeRegExp(word).replace(/'/g, "'?")
  ).join('[\\s-]+')
}

/** Alternatives longest first, so the regex prefers "Rose Gold" to "Gold". */
export function alternation (phrases: Iterable<string>): string {
  const sources = [...new Set(phrases)].sort((a, b) => b.length - a.length).map(phraseSource)
  return sources.length === 0 ? '(?!)' : `(?:${sources.join('|')})`
}

/** Replaces every match that `accept` keeps with a space (so the words around it stay apart). */
export function replaceMatches (text: string, re: RegExp, accept: (m: RegExpExecArray) => boolean): string {
  let out = ''
  let last = 0
  for (const m of text.matchAll(re)) {
    if (!accept(m as RegExpExecArray)) continue
    out += text.slice(last, m.index) + ' '
    last = m.index + m[0].length
  }
  return out + text.slice(last)
}

/** How far around a match its neighbouring word is looked for (a bound, so long messages stay linear). */
export const NEAR = 64

/** The word just before `index` and just after `end`, lower case ('' at the edges or across punctuation). */
export function neighbours (text: string, index: number, end: number): { before: string, after: string } {
  const before = /([\p{L}\p{N}'-]+)\s*$/u.exec(text.slice(Math.max(0, index - NEAR), index))?.[1] ?? ''
  const after = /^\s*([\p{L}\p{N}'-]+)/u.exec(text.slice(end, end + NEAR))?.[1] ?? ''
  return { before: before.toLowerCase(), after: after.toLowerCase() }
}

const FILLER_RE = new RegExp(`${STRICT_START}(?:${QUERY_FILLER.join('|')})${STRICT_END}`, 'giu')

export function removeFiller (text: string): string {
  return text.replace(FILLER_RE, ' ')
}

/** Punctuation out (but not in "2.5" or "1,299"), spaces collapsed, empty words trimmed from both ends. */
export function tidy (text: string): string {
  const words = text
    .replace(/[?!;:"“”()[\]{}&]/g, ' ')
    .replace(/(?<!\d)[.,]|[.,](?!\d)/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '')
  while (words.length > 0 && QUERY_EDGE.has((words[0] as string).toLowerCase())) words.shift()
  while (words.length > 0 && QUERY_EDGE.has((words[words.length - 1] as string).toLowerCase())) words.pop()
  return words.join(' ')
}

/** The words of a tidied text that a keyword search can find in an item (the text itself when none are). */
export function keywords (text: string): string {
  const words = text.split(' ').filter((w) => !QUERY_FUNCTION_WORDS.has(w.toLowerCase()))
  return words.length === 0 ? text : words.join(' ')
}

/** The singular and plural of a word, for "tent" ~ "tents", "watch" ~ "watches", "accessory" ~ "accessories". */
export function numberForms (word: string): string[] {
  const lower = word.toLowerCase()
  const forms = new Set([lower])
  if (/[^aeiou]ies$/.test(lower)) forms.add(lower.slice(0, -3) + 'y')
  else if (/(?:ss|x|ch|sh)es$/.test(lower)) forms.add(lower.slice(0, -2))
  else if (/[^su]s$/.test(lower)) forms.add(lower.slice(0, -1))
  if (/[^aeiou]y$/.test(lower)) forms.add(lower.slice(0, -1) + 'ies')
  else if (/(?:ss|x|ch|sh)$/.test(lower)) forms.add(lower + 'es')
  else if (!/s$/.test(lower)) forms.add(lower + 's')
  return [...forms]
}
