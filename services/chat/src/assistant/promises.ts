/**
 * Phrases by which a reply would promise an action. Nothing in this service acts on orders, records
 * reports, passes messages on or contacts anyone, so no reply may say it will (spec/knowledge.md,
 * "Handoff"). The templates are tested against this list; a model's reply that matches it is not sent.
 */
const PROMISES: RegExp[] = [
  /\bI(?:'| a)m (?:on it|looking into)\b/i,
  /\bI(?:'ll| will| shall| am going to| can) (?:look into|check on|follow up|get back|pass|forward|escalate|contact|email|e-mail|call|refund|cancel|process|arrange|make sure|take care|handle|sort (?:it|this|that) out|let (?:the|our|a) (?:team|staff|support)|notify|inform|report)\b/i,
  /\bI(?:'ve| have) (?:noted|logged|recorded|registered|filed|passed|forwarded|escalated|reported|created a ticket|opened a ticket|cancelled|canceled|refunded|processed)\b/i,
  /\b(?:someone|somebody|a (?:team member|colleague|person|human|support agent))(?: from [\w ]+?)? (?:will|is going to|shall)\b/i,
  /\b(?:we|our (?:team|support(?: team)?|staff)|the (?:team|support(?: team)?|staff))(?:'ll| will| are going to| shall) (?:be in touch|get back to you|contact you|email you|e-mail you|call you|reach out|follow up|look into|review|investigate|make it right)\b/i,
  /\bfollows? up on every\b/i,
  /\b(?:a ticket|your (?:request|report|complaint|feedback)) (?:has been|was|is) (?:created|opened|logged|recorded|noted|passed|forwarded|escalated)\b/i
]

/** The promise phrases `text` contains (empty when it promises nothing). */
export function promisedActions (text: string): string[] {
  return PROMISES.flatMap((pattern) => {
    const match = pattern.exec(text)
    return match === null ? [] : [match[0]]
  })
}
