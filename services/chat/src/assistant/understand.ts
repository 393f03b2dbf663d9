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
  if (label === 'complaint' && PRAISE.test(text) && !GRIEVANCE.test(text)) return 'feedback'
  return label
}

const SHOPPING_IMPERATIVE = /^(?:please )?(?:find|list|show|search(?: for)?)\b/
const PRAISE = /\b(?:great|brilliant|love|loved|lovely|perfect|excellent|amazing|fantastic|awesome|wonderful|superb|happy with|delighted|thank you|thanks)\b/
const GRIEVANCE = /\b(?:not|never|no longer|broken|broke|late|missing|wrong|damaged|worst|terrible|awful|refund|disappointed|unacceptable|still waiting|but)\b|n't\b/
