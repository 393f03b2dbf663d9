import type { Classification } from '@chatsearch/contracts'
import { normalise } from './constraints/text.js'
import { handoffReason } from './handoff.js'
import { isGreeting } from './language.js'
import { NEED, NEGATIVE_WORDS, POLITE_REQUEST, PRAISE, QUESTION_OPENING, SHOPPING_IMPERATIVE } from './lexicon.js'

/**
 * The classifier's label, corrected where a message says plainly what it is and the classifier
 * (an English embedding's nearest centroid) is known to slip: a greeting in any language; an action
 * only a person can take is a request; "find …", "show me …", "list …" ask for products ("recommend
 * a good book" may not: the shop may sell none); praise without a grievance is feedback, not a complaint.
 */
export function refineClassification (message: string, label: Classification): Classification {
  if (isGreeting(message)) return 'greeting'
  const text = normalise(message).toLowerCase()
  const reason = handoffReason(message)
  if ((reason === 'action' || reason === 'person') && label !== 'complaint') return 'request'
  if (SHOPPING_IMPERATIVE.test(text) && label === 'other') return 'request'
  // A question is not a request, however much it wants a product ("which tent is lightest?"; "can I
  // …?" asks whether it may be done); "can you …?" and "what would you recommend …?" ask for something to be done, and stay requests, as
  // does a need stated first ("I need a router … what should I get?").
  if (label === 'request' && QUESTION_OPENING.test(text) && !POLITE_REQUEST.test(text)) return 'question'
  // The same question after what the customer tells of themselves ("I've just started boxing, what
  // do I need?") is one too; after a need of their own ("I need a new router …, what should I get?")
  // it asks for that, a request.
  if (label === 'request' && asksAfterContext(text)) return 'question'
  if (label === 'complaint' && PRAISE.test(text) && !NEGATIVE_WORDS.test(text)) return 'feedback'
  // "What if I leave the end date empty?", "…, how?": a how-to question, not a grievance.
  if (label === 'complaint' && reason === undefined && (QUESTION_OPENING.test(text) || /\bhow\?\s*$/.test(text)) && !NEGATIVE_WORDS.test(text) && !/\bmy\b/.test(text)) return 'question'
  return label
}

/** The message's last clause is a question (QUESTION_OPENING, ending in "?") and what comes before it states no need of the customer's. */
function asksAfterContext (text: string): boolean {
  const at = Math.max(text.lastIndexOf(', '), text.lastIndexOf('. '), text.lastIndexOf('; '))
  if (at < 0 || !text.trimEnd().endsWith('?')) return false
  const last = text.slice(at + 2).trim()
  return QUESTION_OPENING.test(last) && !POLITE_REQUEST.test(last) && !NEED.test(text.slice(0, at))
}
