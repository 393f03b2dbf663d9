import { detectAll } from 'tinyld'
import { normalise } from './constraints/text.js'
import { GREETING, SHARED_FUNCTION_WORDS, STOP } from './lexicon.js'

/**
 * The shopper's language (decision 16). tinyld (pure JavaScript, no model to download) reads short
 * texts better than the other detectors tried (franc took "do you have tents?" for Portuguese), but a
 * few words still fool it ("espresso machine" is German to it): another language than English is
 * claimed only when it is sure, or fairly sure of a message of three words or more.
 */
export interface Language {
  /** ISO 639-1. */
  code: string
  /** Its name in English, for a model's instructions. */
  name: string
}

const ENGLISH: Language = { code: 'en', name: 'English' }
const SURE = 0.5
const FAIRLY_SURE = 0.1
const AHEAD_OF_NEXT = 1.5
const names = new Intl.DisplayNames(['en'], { type: 'language' })

const ENGLISH_SHARE = 0.25

/**
 * Whether a quarter of the message's words, one at least, are English function words no other
 * common language has: tinyld takes a single word it finds only in a small language's dictionary
 * for proof of that language ("I want a handheld thing with maps on it for backcountry trips" was
 * Esperanto to it, sure), while a text with that many English function words is English.
 */
function plainlyEnglish (text: string): boolean {
  const words = text.toLowerCase().match(/\p{L}+(?:'\p{L}+)?/gu) ?? []
  const english = words.filter((w) => STOP.has(w) && !SHARED_FUNCTION_WORDS.has(w)).length
  return english > 0 && english >= ENGLISH_SHARE * words.length
}

export function detectLanguage (message: string): Language {
  // A word with a digit in it is a code (an error code, a version, a model number: "0x800700DF",
  // "davfs2"), not a word of any language, and it swings the detector ("davfs2 keeps warning me …"
  // read as Swedish): the rest of the message is what is read.
  const text = normalise(message).split(' ').filter((w) => !/\d/.test(w)).join(' ')
  if (text === '' || plainlyEnglish(text)) return ENGLISH
  const [first, second] = detectAll(text)
  if (first === undefined || first.lang === 'en') return ENGLISH
  const words = text.split(' ').length
  const sure = first.accuracy >= SURE ||
    (words >= 3 && first.accuracy >= FAIRLY_SURE && first.accuracy >= AHEAD_OF_NEXT * (second?.accuracy ?? 0))
  if (!sure) return ENGLISH
  return { code: first.lang, name: names.of(first.lang) ?? first.lang }
}

/** A message that is only a greeting, in one of the languages GREETING knows. */
export function isGreeting (message: string): boolean {
  return GREETING.test(normalise(message).replace(/^[¡¿\s]+/, ''))
}

/**
 * What the embedded assistant tells a shopper who writes in another language: honestly, in their
 * language where it can, that it understands English and answers in it, searching with their words.
 */
const NOTES: Record<string, string> = {
  es: 'Nota: entiendo sobre todo el inglés, así que respondo en inglés; busco con sus propias palabras.',
  fr: 'Remarque : je comprends surtout l\'anglais, donc je réponds en anglais ; je cherche avec vos propres mots.',
  de: 'Hinweis: Ich verstehe vor allem Englisch und antworte daher auf Englisch; ich suche mit Ihren eigenen Worten.',
  it: 'Nota: capisco soprattutto l\'inglese, quindi rispondo in inglese; cerco con le sue parole.',
  pt: 'Nota: entendo sobretudo inglês, por isso respondo em inglês; pesquiso com as suas próprias palavras.',
  nl: 'Let op: ik begrijp vooral Engels en antwoord daarom in het Engels; ik zoek met uw eigen woorden.'
}

export function languageNote (language: Language): string | undefined {
  if (language.code === 'en') return undefined
  return NOTES[language.code] ?? `Note: I understand English best, so I answer in English; I search with your own words (${language.name}).`
}
