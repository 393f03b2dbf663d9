import { stemmer } from 'stemmer'
import { normalise, numberForms } from './constraints/text.js'
import { NUMBERS, SAME, STOP } from './lexicon.js'

/** A word's singular, so that "returns" meets "return" and "warranties" meets "warranty". */
function singular (word: string): string {
  const forms = numberForms(word)
  return forms.reduce((shortest, form) => (form.length < shortest.length ? form : shortest), word)
}

/** The words of a text that carry its subject, lower case and singular, in order, repeats kept. */
function subjectWords (text: string): string[] {
  const words = normalise(text).toLowerCase().replace(/'s\b/g, '').match(/[\p{L}\p{N}]+/gu) ?? []
  return words.filter((w) => !STOP.has(w) && !(w.length === 1 && !/\d/.test(w))).map((w) => NUMBERS[w] ?? SAME[w] ?? SAME[singular(w)] ?? singular(w))
}

/** The words of a text that carry its subject, lower case and singular, in order of first use. */
export function contentWords (text: string): string[] {
  return [...new Set(subjectWords(text))]
}

/**
 * The subject words as their stems, in order, repeats kept: what a message and a source are matched
 * by, so that "when can a channel be removed" meets "remove a channel". Stems are for comparing only;
 * a reply that names a word uses `contentWords`.
 */
export function stemSequence (text: string): string[] {
  return subjectWords(text).map((w) => stemmer(w))
}

/** The distinct stems of `stemSequence`, in order of first use. */
export function stems (text: string): string[] {
  return [...new Set(stemSequence(text))]
}

/** The share of `wanted` found among `present` (0 when nothing is wanted). */
export function coverage (wanted: string[], present: Set<string>): number {
  if (wanted.length === 0) return 0
  return wanted.filter((w) => present.has(w)).length / wanted.length
}
