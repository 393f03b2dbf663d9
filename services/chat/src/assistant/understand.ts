import type { Classification } from '@chatsearch/contracts'
import { normalise } from './constraints/text.js'
import { handoffReason } from './handoff.js'
import { isGreeting } from './language.js'

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
  if (label === 'request' && ASKS.test(text) && !POLITE_REQUEST.test(text)) return 'question'
  if (label === 'complaint' && PRAISE.test(text) && !GRIEVANCE.test(text)) return 'feedback'
  // "What if I leave the end date empty?", "…, how?": a how-to question, not a grievance.
  if (label === 'complaint' && reason === undefined && (ASKS.test(text) || /\bhow\?\s*$/.test(text)) && !GRIEVANCE.test(text) && !/\bmy\b/.test(text)) return 'question'
  return label
}

const ASKS = /^(?:what|what's|which|how|do|does|did|is|are|any|where|when|who|why|(?:can|could|may|should) (?:i|we))\b/
const POLITE_REQUEST = /^(?:please )?(?:can|could|would|will) you\b|\b(?:recommend|suggest)\b/
const SHOPPING_IMPERATIVE = /^(?:please )?(?:find|list|show|search(?: for)?)\b/
const PRAISE = /\b(?:great|brilliant|love|loved|lovely|perfect|excellent|amazing|fantastic|awesome|wonderful|superb|happy with|delighted|thank you|thanks)\b/
const GRIEVANCE = /\b(?:not|never|no longer|broken|broke|late|missing|wrong|damaged|worst|terrible|awful|refund|disappointed|unacceptable|still|supposed|again|but)\b|n't\b|\?\?/
