import { stemmer } from 'stemmer'
import { normalise, numberForms } from './constraints/text.js'

/**
 * Words that say nothing of what a message is about: function words, question words, the verbs
 * of asking and verbs too common to tell two sentences apart ("take", "make"). What is left ("shipping", "take", "long") is compared with a source's words to see
 * whether it answers the message.
 */
const STOP = new Set(`a an the and or but of to for with that this these those which who whom whose what when where why
how is are was were be been being am do does did done have has had having i me my mine we us our you your yours it its
they them their he she his her in on at by from so just very really can could will would shall should may might must if
as than also there here too else not no any some all each every about into out up down over off again then once only own
same such more most other please thanks thank hi hello hey get got tell know want need like let much many take took
taken make made go goes went come came put use used keep give say see look find after`.split(/\s+/))

/** A word's singular, so that "returns" meets "return" and "warranties" meets "warranty". */
function singular (word: string): string {
  const forms = numberForms(word)
  return forms.reduce((shortest, form) => (form.length < shortest.length ? form : shortest), word)
}

/** Small numbers as digits: "two years" meets "2-year". */
const NUMBERS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', thirty: '30' }

/**
 * Words shops and shoppers use for the same thing, folded to one: "do you deliver to Canada?" is
 * answered by "we do not ship outside the United States".
 */
const SAME: Record<string, string> = Object.fromEntries(Object.entries({
  ship: 'deliver delivery delivered delivering shipping shipped shipment',
  refund: 'refunded',
  return: 'returned returning',
  charge: 'charged',
  pay: 'paid paying payment',
  order: 'purchase purchased ordered',
  price: 'cost costs priced',
  multiple: 'lots several numerous'
}).flatMap(([word, forms]) => forms.split(' ').map((form) => [form, word])))

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
