import { normalise } from './constraints/text.js'
import type { HandoffCase } from './types.js'

/**
 * What the shopper asks that only a person can give (spec/knowledge.md, "Handoff"): an action on
 * their own order, payment or account, which nothing in this service can take, or a person.
 * A question about the rules ("can I return a jacket?", "how long do refunds take?") is not one:
 * the help pages answer it.
 */
export type HandoffReason = Extract<HandoffCase, 'action' | 'person'>

/**
 * "How do I reset my password?", "how can I cancel my order?": the customer asks how to do it
 * themselves, which the help pages may say; only asking the shop to act, or saying they want it
 * done, is an action for a person.
 */
const HOW_TO = /^(?:(?:hi|hello|hey|ok|okay|so|and|but|please)\W+)*(?:how (?:do|can|could|would|should) (?:i|we|you)|how to|is it possible to|is there a way to|what(?:'s| is| are)? the (?:steps|way|process) to|what do i (?:need to )?do to|where (?:do|can) i)\b/

const ACTION_VERBS = 'cancel|refund|return|exchange|change|modify|update|amend|track|trace|replace|delete|close|unsubscribe|reset|resend|re-send|apply|add|remove|split|combine|upgrade|downgrade'
const OWN = 'my|our|the|this|that|an?|it|them|me'
const THINGS = 'orders?|purchases?|parcels?|packages?|deliver(?:y|ies)|shipments?|payments?|charges?|subscriptions?|accounts?|address|email|password|items?|money|invoices?|receipt'
const PATTERNS: Array<[RegExp, HandoffReason]> = [
  // a person: "can I talk to a human", "agent please", "customer service"
  [/\b(?:speak|talk|connect me|put me through)\b[^.?!]{0,20}\b(?:human|person|people|agent|someone|somebody|representative|manager|staff|operator|team)\b/, 'person'],
  [/\b(?:want|need|get|give me|with|to) (?:a |an )?(?:real|live|actual) (?:person|human|agent)\b|\b(?:human|agent|operator|representative)(?: please|,? please|!|$)/, 'person'],
  // "I'd like a person", "a person please", "I want a human"
  [/\b(?:i|we)(?:'d| would)? (?:like|want|need) (?:a|an|some) (?:person|human|agent|representative|team member)(?![\w-])|^(?:an? )?(?:person|human|team member)(?:,? please)?[.!]*$/, 'person'],
  [/\bcustomer (?:service|support|care)\b.*\b(?:contact|reach|call|speak|talk)\b|\b(?:contact|reach|call) (?:the )?(?:customer (?:service|support)|support|you)\b/, 'person'],
  // where is my order / my refund
  [/\bwhere(?:'s| is| are)? (?:my|our) (?:order|parcel|package|delivery|refund|money|shipment)/, 'action'],
  [/\b(?:my|our) (?:order|parcel|package|delivery|refund)\b[^.?!]{0,40}\b(?:(?:has|have|hasn't|haven't|has not|have not|did not|didn't|never) (?:arrived|come|shipped|been (?:delivered|shipped))|is (?:late|missing|lost|delayed|wrong)|was (?:wrong|damaged|broken))/, 'action'],
  // "cancel my order", "I want a refund", "can you change my address", "refund me"
  [new RegExp(`\\b(?:${ACTION_VERBS})\\b[^.?!]{0,24}\\b(?:my|our) (?:[\\w-]+ ){0,2}(?:${THINGS})\\b`), 'action'],
  [new RegExp(`\\b(?:i|we) (?:want|need|would like|'d like|demand|wish) (?:to )?(?:get )?(?:a |an |my |our )?(?:${ACTION_VERBS}|replacement|cancellation|repair)\\b(?![^.?!]{0,30}\\b(?:policy|policies|rules?)\\b)`), 'action'],
  [new RegExp(`\\b(?:can|could|would|will) you (?:please )?(?:${ACTION_VERBS})\\b`), 'action'],
  [new RegExp(`^(?:please )?(?:${ACTION_VERBS}) (?:${OWN})\\b`), 'action'],
  [/\brefund me\b|\bgive me (?:a |my )?(?:refund|money back)\b|\b(?:want|need) (?:my|our) money back\b/, 'action'],
  // The same in the languages the assistant notes (language.ts): the shopper's own words are read.
  [/\b(?:cancelar|anular|devolver|annuler|rembourser|stornieren|zurückgeben|erstatten|annullare|rimborsare|cancelar|reembolsar|annuleren|terugbetalen)\b[^.?!]{0,30}\b(?:mi|mis|ma|mon|mes|meine[nr]?|il mio|la mia|o meu|a minha|mijn)\b|\b(?:d[oó]nde est[aá]|o[uù] est|wo ist|dov'è|onde está|waar is) (?:mi|ma|mon|meine|il mio|la mia|o meu|a minha|mijn)\b|\b(?:quiero|je veux|ich will|ich möchte|voglio|quero|ik wil) (?:un |una |mon |mein |meinen |il |o |mijn )?(?:reembolso|remboursement|geld zurück|rückerstattung|rimborso|terugbetaling)\b/, 'action'],
  [/\b(?:meine[nrs]?|mein|mijn) (?:\S+ ){0,2}(?:stornieren|zurückgeben|erstatten|annuleren|terugsturen)/, 'action'],
  [/\b(?:hablar con|parler (?:à|a|avec)|sprechen mit|parlare con|falar com|spreken met)[^.?!]{0,20}\b(?:humano|persona|agente|humain|personne|conseiller|menschen|mitarbeiter|operatore|pessoa|atendente|mens|medewerker)/, 'person'],
  [/\bmit (?:einem|einer) (?:menschen|mitarbeiter(?:in)?|person)\b/, 'person']
]

/** Why the message must go to a person, or undefined when the assistant may answer it. */
export function handoffReason (message: string): HandoffReason | undefined {
  const text = normalise(message).toLowerCase().replace(/’/g, "'")
  const howTo = HOW_TO.test(text)
  for (const [pattern, reason] of PATTERNS) if ((reason === 'person' || !howTo) && pattern.test(text)) return reason
  return undefined
}
