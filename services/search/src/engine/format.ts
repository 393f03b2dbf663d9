/**
 * Highlight and crop (Meilisearch's attributesToHighlight and attributesToCrop): a hit's `_formatted`,
 * computed here for both engines from the hit as the engine returned it and the query's words.
 *
 * Words are matched as the embedded engine matches them (text.ts: folded, so "creme" finds "Crème";
 * typos by word length, the first letter counting as two; the query's last word also as a prefix),
 * and marked in the text as written. As in Meilisearch, a word found whole or with typos is marked
 * whole, and one found as a prefix of the last query word only up to what was typed
 * ("<em>cush</em>ion"). A crop keeps about `length` words around the best match: the interval
 * holding the most distinct query words in the fewest words, then the earliest, grown one word
 * before and one after in turn, towards the side still inside its sentence when the other meets a
 * sentence end (Meilisearch's rule, simplified); without a match, the first words. A word found
 * through a synonym (query-terms.ts) is marked too, whole, and each word of a phrase found as one.
 *
 * Unlike Meilisearch, every string of `_formatted` is HTML-escaped, the inserted tags and crop
 * markers excepted: a page can show `_formatted` as HTML without letting a catalog's text write
 * markup ("<script>" in a title shows as text). Meilisearch inserts its tags into the raw text.
 */
import { formatDefaults, type SearchBody } from '@chatsearch/contracts'
import { matchPattern, matchPatterns } from '@chatsearch/filter'
import { allowedTypos, foldText, isPrefixWord, type QueryWord } from '../text.js'
import type { SynonymSpan } from './query-terms.js'

/** One entry of attributes_to_crop: the attributes it names (a Meilisearch attribute pattern) and their crop length in words. */
export interface CropRule {
  pattern: string
  length: number
}

export interface FormatOptions {
  /** Attribute patterns (`title`, `variants.color`, `*`) whose strings get their matches wrapped in the tags. */
  highlight: readonly string[]
  /** Attributes to crop; the last rule naming an attribute sets its length, as in Meilisearch. */
  crop: readonly CropRule[]
  preTag: string
  postTag: string
  /** Put where a crop cut the text; empty: nothing. */
  marker: string
}

type FormatRequest = Pick<SearchBody, 'attributes_to_highlight' | 'attributes_to_crop' | 'crop_length' | 'crop_marker' | 'highlight_pre_tag' | 'highlight_post_tag'>

/**
 * An entry of attributes_to_crop as Meilisearch reads it: `description:20` crops `description` to 20
 * words. The attribute is what comes before the last colon; a length that is not a number is the
 * request's crop_length (Meilisearch splits at the last colon and falls back the same way).
 */
export function cropRule (entry: string, cropLength: number): CropRule {
  const colon = entry.lastIndexOf(':')
  if (colon < 0) return { pattern: entry, length: cropLength }
  const length = entry.slice(colon + 1)
  return { pattern: entry.slice(0, colon), length: /^\d+$/.test(length) ? Number(length) : cropLength }
}

/**
 * What a search asks of highlight and crop, its defaults Meilisearch's; undefined when it names
 * neither list (null is none too): then hits get no `_formatted`, whatever the tags.
 */
export function formatOptions (request: FormatRequest): FormatOptions | undefined {
  const highlight = request.attributes_to_highlight ?? null
  const crop = request.attributes_to_crop ?? null
  if (highlight === null && crop === null) return undefined
  const cropLength = request.crop_length ?? formatDefaults.cropLength
  return {
    highlight: highlight ?? [],
    crop: (crop ?? []).map((entry) => cropRule(entry, cropLength)),
    preTag: request.highlight_pre_tag ?? formatDefaults.highlightPreTag,
    postTag: request.highlight_post_tag ?? formatDefaults.highlightPostTag,
    marker: request.crop_marker ?? formatDefaults.cropMarker
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text as HTML shows it, quotes included so that it is safe in an attribute value too. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!)

/** A word of a text: where it is (UTF-16 offsets into the text) and its folded form, as text.ts's tokenize would give it. */
interface Word {
  start: number
  end: number
  term: string
}

/**
 * Letters, digits and the combining marks on them: tokenize cuts the folded text at anything else,
 * and folding drops the marks (so "e" + U+0301 is one word, "e").
 */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u
const MARK = /\p{M}/u
/** What ends a sentence: a crop prefers not to cross one (Meilisearch's hard separators, in short). */
const SENTENCE_END = /[.!?;\n\r\u3002\uff01\uff1f]/u

function wordsOf (text: string): Word[] {
  const words: Word[] = []
  let start = -1
  const close = (end: number) => {
    const term = foldText(text.slice(start, end))
    if (term !== '') words.push({ start, end, term })
    start = -1
  }
  let at = 0
  for (const ch of text) {
    if (WORD_CHAR.test(ch)) {
      if (start < 0) start = at
    } else if (start >= 0) {
      close(at)
    }
    at += ch.length
  }
  if (start >= 0) close(text.length)
  return words
}

/**
 * Where the first `letters` folded letters of `word` end in the text as written ("Crè" for "cre" in
 * "Crème"), with the combining marks on the last of them.
 */
function prefixEnd (text: string, word: Word, letters: number): number {
  let folded = 0
  let at = word.start
  for (const ch of text.slice(word.start, word.end)) {
    if (folded >= letters && !MARK.test(ch)) break
    folded += [...foldText(ch)].length
    at += ch.length
  }
  return at
}

/**
 * Typos between two words as optimal string alignment (a swap of neighbours is one typo), the
 * distance Vocabulary.fuzzy (engines/embedded/typo.ts) walks its trie with.
 */
function typoDistance (a: string[], b: string[]): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(row[j - 1]! + 1, previous[j]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1)
      row.push(value)
    }
    before = previous
    previous = row
  }
  return previous[b.length]!
}

/**
 * Whether `term` is within the typos `word` is allowed (text.ts's allowedTypos). As in Vocabulary
 * .fuzzy and Meilisearch, a typo on the first letter counts as two: a term starting with another
 * letter must be one edit away from a word allowed two.
 */
function withinTypos (word: string, term: string): boolean {
  const allowed = allowedTypos(word)
  if (allowed === 0) return false
  const a = [...word]
  const b = [...term]
  if (Math.abs(a.length - b.length) > allowed) return false
  const distance = typoDistance(a, b)
  return a[0] === b[0] ? distance <= allowed : allowed >= 2 && distance <= 1
}

/** A word of a text matching the query: which query word it matches, and how many folded letters to mark (absent: all). */
interface TermMatch {
  query: number
  letters?: number
}

/** A synonym of several words, marked where its words follow one another: `query` is the first query word of its key. */
interface PhraseMatch {
  terms: readonly string[]
  query: number
}

/**
 * What marks the words of a text: the query word each of its terms matches (see termMatcher) and
 * the phrases among the synonyms, by their first term.
 */
interface Matcher {
  term: (term: string) => TermMatch | undefined
  phrases: ReadonlyMap<string, readonly PhraseMatch[]>
}

/**
 * The query word a term matches, in Meilisearch's order: a word as typed, then a one-word synonym
 * (the first query word of its key), then the other words with typos (these marked whole), then the
 * last word as a prefix (marked up to what was typed: "jacket" marks "<em>jacket</em>s" rather than
 * taking "jackets" for a typo), then with typos. Remembered per term: a page of hits repeats its words.
 */
function termMatcher (words: readonly QueryWord[], synonyms: readonly SynonymSpan[]): Matcher {
  const known = new Map<string, TermMatch | undefined>()
  const alternatives = new Map<string, number>()
  const phrases = new Map<string, PhraseMatch[]>()
  for (const { first, alternatives: all } of synonyms) {
    for (const terms of all) {
      const start = terms[0]!
      if (terms.length > 1) phrases.set(start, [...phrases.get(start) ?? [], { terms, query: first }])
      else if (!alternatives.has(start)) alternatives.set(start, first)
    }
  }
  const find = (term: string): TermMatch | undefined => {
    const exact = words.findIndex(({ word }) => word === term)
    if (exact >= 0) return { query: exact }
    const synonym = alternatives.get(term)
    if (synonym !== undefined) return { query: synonym }
    const typo = words.findIndex((w) => !isPrefixWord(w) && withinTypos(w.word, term))
    if (typo >= 0) return { query: typo }
    const prefix = words.findIndex((w) => isPrefixWord(w) && term.startsWith(w.word))
    if (prefix >= 0) return { query: prefix, letters: [...words[prefix]!.word].length }
    const prefixTypo = words.findIndex((w) => isPrefixWord(w) && withinTypos(w.word, term))
    return prefixTypo >= 0 ? { query: prefixTypo } : undefined
  }
  const term = (t: string) => {
    if (!known.has(t)) known.set(t, find(t))
    return known.get(t)
  }
  return { term, phrases }
}

/** The matches of a text's words: each term's, then the synonym phrases found in the text marking the words no term marked. */
function matchesOf (words: readonly Word[], matcher: Matcher): Array<TermMatch | undefined> {
  const matches = words.map((word) => matcher.term(word.term))
  if (matcher.phrases.size === 0) return matches
  words.forEach((word, i) => {
    for (const { terms, query } of matcher.phrases.get(word.term) ?? []) {
      if (i + terms.length > words.length || !terms.every((term, j) => words[i + j]!.term === term)) continue
      for (let j = 0; j < terms.length; j++) matches[i + j] ??= { query }
    }
  })
  return matches
}

/**
 * The words kept when cropping a text of more than `length` words (see the header): the first and
 * last kept, as indexes of `words`.
 */
function cropWindow (text: string, words: readonly Word[], matches: ReadonlyArray<TermMatch | undefined>, length: number): [number, number] {
  const at = matches.flatMap((m, i) => m === undefined ? [] : [i])
  if (at.length === 0) return [0, length - 1]
  let best = { first: at[0]!, last: at[0]!, distinct: 0 }
  for (let i = 0; i < at.length; i++) {
    const seen = new Set<number>()
    for (let j = i; j < at.length && at[j]! - at[i]! < length; j++) {
      seen.add(matches[at[j]!]!.query)
      if (seen.size > best.distinct || (seen.size === best.distinct && at[j]! - at[i]! < best.last - best.first)) {
        best = { first: at[i]!, last: at[j]!, distinct: seen.size }
      }
    }
  }
  let { first, last } = best
  let beforeNext = true
  /** Whether the text between a word and the next ends a sentence. */
  const endsSentence = (left: number) => SENTENCE_END.test(text.slice(words[left]!.end, words[left + 1]!.start))
  /** The side the window grows on next: the only one left, the one still inside its sentence, or each in turn. */
  const growBefore = (): boolean => {
    if (first === 0) return false
    if (last === words.length - 1) return true
    const hardBefore = endsSentence(first - 1)
    const hardAfter = endsSentence(last)
    if (hardBefore !== hardAfter) return hardAfter
    beforeNext = !beforeNext
    return !beforeNext
  }
  for (let spare = length - (last - first + 1); spare > 0 && (first > 0 || last < words.length - 1); spare--) {
    if (growBefore()) first--
    else last++
  }
  return [first, last]
}

/** How one string of the hit is shown: highlighted, cropped to `cropLength` words, or neither. */
function formatText (text: string, matcher: Matcher, highlight: boolean, cropLength: number | undefined, options: FormatOptions): string {
  if (!highlight && (cropLength === undefined || cropLength === 0)) return escapeHtml(text)
  const words = wordsOf(text)
  const matches = matchesOf(words, matcher)
  let [first, last] = [0, words.length - 1]
  if (cropLength !== undefined && cropLength > 0 && words.length > cropLength) [first, last] = cropWindow(text, words, matches, cropLength)
  // The text before the first word and after the last stays with them (an opening bracket, a full stop).
  const start = first === 0 ? 0 : words[first]!.start
  const end = last === words.length - 1 ? text.length : words[last]!.end
  let out = start > 0 ? options.marker : ''
  let at = start
  if (highlight) {
    for (let i = first; i <= last; i++) {
      const m = matches[i]
      if (m === undefined) continue
      const word = words[i]!
      const stop = m.letters === undefined ? word.end : prefixEnd(text, word, m.letters)
      out += escapeHtml(text.slice(at, word.start)) + options.preTag + escapeHtml(text.slice(word.start, stop)) + options.postTag
      at = stop
    }
  }
  out += escapeHtml(text.slice(at, end))
  return end < text.length ? out + options.marker : out
}

/** The crop length of an attribute path: that of the last rule naming it, as Meilisearch's later entries override earlier ones. */
function cropLengthOf (rules: readonly CropRule[], path: string): number | undefined {
  let length: number | undefined
  for (const rule of rules) if (matchPattern(rule.pattern, path) === 'match') length = rule.length
  return length
}

/**
 * A hit's `_formatted`: every attribute of the hit, nested ones by their dot path (`details.material`),
 * arrays element by element; strings formatted (and escaped), other values as they are (Meilisearch
 * would turn a highlighted number into a string). `words` and `synonyms` are the query's
 * (query-terms.ts's queryTerms; text.ts's queryWords without a catalog's stop words and synonyms);
 * the hit is not changed.
 */
export function formatHit (hit: Readonly<Record<string, unknown>>, words: readonly QueryWord[], options: FormatOptions, synonyms: readonly SynonymSpan[] = []): Record<string, unknown> {
  const matcher = termMatcher(words, synonyms)
  function format (value: unknown, path: string): unknown {
    if (typeof value === 'string') {
      const highlight = options.highlight.length > 0 && matchPatterns(options.highlight, path) === 'match'
      return formatText(value, matcher, highlight, cropLengthOf(options.crop, path), options)
    }
    if (Array.isArray(value)) return value.map((item) => format(item, path))
    if (value !== null && typeof value === 'object') return formatObject(value as Record<string, unknown>, `${path}.`)
    return value
  }
  function formatObject (object: Readonly<Record<string, unknown>>, prefix: string): Record<string, unknown> {
    return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, format(value, `${prefix}${key}`)]))
  }
  return formatObject(hit, '')
}
