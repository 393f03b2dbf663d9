import type { TurnDecision } from '../api/types.js'
import { sourceNames } from './citations.js'

/** The routes and handoff reasons of decision 17 in words; a route added to the contract fails to compile here until it is named. */
const routeLabels: Record<TurnDecision['route'], string> = {
  small_talk: 'Small talk',
  follow_up: 'A follow-up about items named before',
  clarify: 'A question back: which item was meant',
  faq: 'An FAQ',
  knowledge: 'Sentences of the help pages',
  catalog: 'Catalog items',
  no_match: 'Nothing in the catalog matches',
  handoff: 'Handed off to the team',
  unavailable: 'The catalog could not be reached',
  model: 'The language model'
}

export const reasonLabels: Record<NonNullable<TurnDecision['handoff_reason']>, string> = {
  action: 'An action on the customer\'s own order or account',
  person: 'A person was asked for',
  complaint: 'A complaint',
  unanswered: 'A question nothing answers'
}

/** Why an assistant turn went its way, for the team, behind a "Why?" disclosure (native: keyboard and screen readers work as is). */
export function Decision ({ decision }: { decision: TurnDecision }) {
  return (
    <details class='decision'>
      <summary>Why?<span class='sr-only'> How the assistant decided this reply</span></summary>
      <dl class='facts'>
        <div><dt>Route</dt><dd>{routeLabels[decision.route]}</dd></div>
        {decision.handoff_reason !== undefined && <div><dt>Handoff reason</dt><dd>{reasonLabels[decision.handoff_reason]}</dd></div>}
      </dl>
      {decision.evidence.length === 0
        ? <p class='hint'>No evidence weighed.</p>
        : (
          <>
            <p class='hint'>Evidence, best first</p>
            <ul class='evidence'>
              {decision.evidence.map((e) => (
                <li key={`${e.source}:${e.reference}`}>
                  <span class='badge'>{sourceNames[e.source]}</span> <code>{e.reference}</code>
                  {' · '}score <data value={String(e.score)}>{e.score.toFixed(2)}</data>
                  {' · '}{e.used ? 'used in the reply' : 'not used'}
                </li>
              ))}
            </ul>
          </>
          )}
    </details>
  )
}
