import { Type, type Static } from 'typebox'
import { CitationSource } from './citation.js'

// Why an assistant turn went the way it did (ARCHITECTURE.md decision 17): kept with the assistant's
// message for the project's team (the admin transcript, the console), never shown to the shopper.

/** What answered the turn. */
export const DecisionRoute = Type.Union([
  Type.Literal('small_talk'),
  Type.Literal('follow_up'),
  Type.Literal('clarify'),
  Type.Literal('faq'),
  Type.Literal('knowledge'),
  Type.Literal('catalog'),
  Type.Literal('no_match'),
  Type.Literal('handoff'),
  Type.Literal('unavailable'),
  Type.Literal('model')
], { description: 'What answered: small talk, a follow-up about items named before, a question back, an FAQ, help-page sentences, catalog items, "nothing matches", a handoff, the catalog being unreachable, or the language model' })
export type DecisionRoute = Static<typeof DecisionRoute>

/** Why a turn was handed off. */
export const HandoffReason = Type.Union([
  Type.Literal('action'),
  Type.Literal('person'),
  Type.Literal('complaint'),
  Type.Literal('unanswered')
], { description: 'An action on the customer\'s own order or account, a person asked for, a complaint, or a question nothing answers' })
export type HandoffReason = Static<typeof HandoffReason>

/** One piece of evidence the turn weighed, on the relevance scale of decision 17. */
export const DecisionEvidence = Type.Object({
  source: CitationSource,
  reference: Type.String({ description: 'As in a citation: the item id, `<document id>#<chunk id>`, or the pair\'s id' }),
  score: Type.Number({ minimum: 0, maximum: 1, description: 'Its relevance to the message, calibrated: the estimated chance that it answers' }),
  used: Type.Boolean({ description: 'Cited by the reply' })
}, { additionalProperties: false })
export type DecisionEvidence = Static<typeof DecisionEvidence>

/** The most evidence a decision keeps. */
export const decisionEvidenceMax = 20

export const TurnDecision = Type.Object({
  route: DecisionRoute,
  handoff_reason: Type.Optional(HandoffReason),
  evidence: Type.Array(DecisionEvidence, { maxItems: decisionEvidenceMax, description: 'The best evidence of each source, best first' })
}, { additionalProperties: false, description: 'Why the turn went the way it did; for the project\'s team only' })
export type TurnDecision = Static<typeof TurnDecision>
