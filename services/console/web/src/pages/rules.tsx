import { useRef } from 'preact/hooks'
import { getRules, putRules } from '../api/catalog.js'
import type { SearchRule } from '../api/types.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'
import { parseRules, rulesText, ruleState, type RuleState } from '../rules.js'

const stateLabels: Record<RuleState, string> = { scheduled: 'Scheduled', active: 'Active', ended: 'Ended' }

const EXAMPLE = `[
  {
    "id": "summer-boots",
    "query": "hiking boots",
    "match": "contains",
    "pin": [{ "item_id": "sku-000929", "position": 1 }],
    "hide": ["sku-000012"],
    "active_from": "2026-06-01T00:00:00Z",
    "active_until": "2026-09-01T00:00:00Z"
  }
]`

function activeWindow (rule: SearchRule): string {
  const from = rule.active_from ?? undefined
  const until = rule.active_until ?? undefined
  if (from === undefined && until === undefined) return 'Always'
  if (until === undefined) return `From ${formatDate(from)}`
  if (from === undefined) return `Until ${formatDate(until)}`
  return `${formatDate(from)} to ${formatDate(until)}`
}

/** The rules as a table, in precedence order, each with whether it applies now. */
function RulesTable ({ rules }: { rules: SearchRule[] }) {
  if (rules.length === 0) return <p>No rules: searches answer as the engine ranks.</p>
  const now = Date.now()
  return (
    <table class='responsive'>
      <caption class='sr-only'>Search rules, in precedence order</caption>
      <thead>
        <tr><th scope='col'>Rule</th><th scope='col'>Searches</th><th scope='col'>Pinned</th><th scope='col'>Hidden</th><th scope='col'>When</th><th scope='col'>Now</th></tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <tr key={rule.id}>
            <td data-label='Rule'><code>{rule.id}</code></td>
            <td data-label='Searches'>{rule.match === 'exact' ? 'exactly' : 'containing'} “{rule.query}”</td>
            <td data-label='Pinned'>{(rule.pin ?? []).length === 0 ? '—' : (rule.pin ?? []).map((p) => `${p.item_id} at ${p.position}`).join(', ')}</td>
            <td data-label='Hidden'>{(rule.hide ?? []).length === 0 ? '—' : (rule.hide ?? []).join(', ')}</td>
            <td data-label='When'>{activeWindow(rule)}</td>
            <td data-label='Now'>{stateLabels[ruleState(rule, now)]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The whole list as JSON, checked here for what can be seen at a glance and by the search service for the rest; saving replaces it. */
function RulesEditor ({ projectId, rules, onSaved }: { projectId: string, rules: SearchRule[], onSaved: () => void }) {
  const action = useAction()
  const text = useRef<HTMLTextAreaElement>(null)
  return (
    <form
      class='stack' onSubmit={(e) => {
        e.preventDefault()
        const parsed = parseRules(String(new FormData(e.currentTarget).get('rules')))
        if ('error' in parsed) {
          action.setStatus(undefined)
          action.setError(parsed.error)
          return
        }
        action.run(() => putRules(projectId, parsed.rules), (saved) => `Rules saved (${saved.rules.length}); searches follow them at once.`).then((saved) => {
          if (saved === undefined) return
          // The list as the service keeps it (dates in UTC), in this editor, which keeps its message.
          if (text.current !== null) text.current.value = rulesText(saved.rules)
          onSaved()
        })
      }}
    >
      <label for='rules-json'>Rules (JSON), first rule first</label>
      <textarea ref={text} id='rules-json' name='rules' rows={16} aria-describedby='rules-hint' defaultValue={rulesText(rules)} />
      <div class='hint' id='rules-hint'>
        <p>
          A list of rules. Each has an <code>id</code>, a <code>query</code> and a <code>match</code>: <code>exact</code> (the search
          is these words) or <code>contains</code> (the search holds these words together, in this order); case, accents and
          punctuation do not count. <code>pin</code> shows items at a position of the results (1 is the first), when they exist
          and the search's filters allow them; <code>hide</code> never shows items. <code>active_from</code> and{' '}
          <code>active_until</code> (ISO 8601, with a time zone) are optional. Hiding wins over pinning; when two rules pin one
          position, the first rule keeps it.
        </p>
        <details>
          <summary>Example</summary>
          <pre>{EXAMPLE}</pre>
        </details>
      </div>
      <div><button type='submit' class='primary' disabled={action.pending}>Save rules</button></div>
      <ErrorAlert message={action.error} />
      <Status>{action.status}</Status>
    </form>
  )
}

function Body () {
  const project = useProject()
  const rules = useLoad(() => getRules(project.id), [project.id])
  return (
    <>
      <p class='hint'>Pin items to positions or hide them for a search, optionally between two dates. Every search of the project follows them: the shop's, the assistant's and the playground's.</p>
      <ErrorAlert message={rules.error} />
      {rules.data === undefined
        ? rules.loading && <Loading what='rules' />
        : (
          <>
            <section aria-labelledby='rules-list' class='card'>
              <h2 id='rules-list'>Rules</h2>
              <RulesTable rules={rules.data.rules} />
            </section>
            <section aria-labelledby='rules-edit' class='card'>
              <h2 id='rules-edit'>Edit</h2>
              {/* Not keyed by the list: made again once saved, it would lose its "Rules saved" message. */}
              <RulesEditor projectId={project.id} rules={rules.data.rules} onSaved={() => rules.reload()} />
            </section>
          </>
          )}
    </>
  )
}

export function Rules ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Search rules'><Body /></ProjectFrame>
}
