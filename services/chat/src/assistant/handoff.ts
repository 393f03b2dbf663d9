import { normalise } from './constraints/text.js'
import type { HandoffCase } from './types.js'
import { HANDOFF_PATTERNS, HOW_TO } from './lexicon.js'

/**
 * What the shopper asks that only a person can give (spec/knowledge.md, "Handoff"): an action on
 * their own order, payment or account, which nothing in this service can take, or a person.
 * A question about the rules ("can I return a jacket?", "how long do refunds take?") is not one:
 * the help pages answer it.
 */
export type HandoffReason = Extract<HandoffCase, 'action' | 'person'>

/** Why the message must go to a person, or undefined when the assistant may answer it. */
export function handoffReason (message: string): HandoffReason | undefined {
  const text = normalise(message).toLowerCase().replace(/’/g, "'")
  const howTo = HOW_TO.test(text)
  for (const [pattern, reason] of HANDOFF_PATTERNS) if ((reason === 'person' || !howTo) && pattern.test(text)) return reason
  return undefined
}
