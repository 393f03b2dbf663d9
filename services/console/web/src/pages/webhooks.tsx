import { useEffect, useState } from 'preact/hooks'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, retryDelivery, rotateWebhookSecret, sendTestEvent, updateWebhook } from '../api/webhooks.js'
import type { WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { CopyButton } from '../components/copy-button.js'
import { ProjectFrame, useProject } from '../components/project-frame.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'

/** The events an endpoint may be sent, with what each tells (the README's Webhooks section). */
const EVENTS: Array<{ type: WebhookEventType, what: string }> = [
  { type: 'chat.handoff', what: 'a conversation is handed off to the team' },
  { type: 'chat.answered_by_team', what: 'a team member answers a conversation' },
  { type: 'feedback.created', what: 'a customer rates a reply' },
  { type: 'task.succeeded', what: 'a crawl, file or catalog import finishes' },
  { type: 'task.failed', what: 'a crawl, file or catalog import fails' },
  { type: 'task.canceled', what: 'a crawl, file or catalog import is canceled' }
]
const PAGE = 20

const eventsOf = (form: HTMLFormElement) => new FormData(form).getAll('events').map(String) as WebhookEventType[]

/** The URL field and the events' checkboxes, for a new endpoint or a change of one. */
function EndpointFields ({ prefix, endpoint }: { prefix: string, endpoint?: WebhookEndpoint }) {
  return (
    <>
      <label for={`${prefix}-url`}>Endpoint URL</label>
      <input
        id={`${prefix}-url`} name='url' type='url' required autocapitalize='none' spellcheck={false}
        placeholder='https://hooks.shop.example/chatsearch' defaultValue={endpoint?.url}
      />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((e) => (
          <label key={e.type} class='checkbox'>
            <input type='checkbox' name='events' value={e.type} defaultChecked={endpoint === undefined ? e.type === 'chat.handoff' : endpoint.events.includes(e.type)} />
            <code>{e.type}</code>: {e.what}
          </label>
        ))}
      </fieldset>
    </>
  )
}

/** A signing secret just made (creation, rotation): shown this once. */
function Secret ({ endpoint, onDismiss }: { endpoint: WebhookEndpointWithSecret, onDismiss: () => void }) {
  return (
    <div class='revealed' role='group' aria-label='Signing secret'>
      <p><strong>Copy the signing secret of {endpoint.url} now.</strong> It is shown only once; rotate it to get a new one.</p>
      <div class='secret-row'>
        <code class='secret' tabIndex={0} aria-label='Signing secret'>{endpoint.secret}</code>
        <CopyButton text={endpoint.secret} what='signing secret' />
      </div>
      <button type='button' onClick={onDismiss}>I have copied it</button>
    </div>
  )
}

/**
 * One endpoint's delivery log, newest first, a page at a time; a failed delivery can be sent again.
 * A new `round` (a test event was sent) shows the first page afresh, keeping what the log said last
 * ("Delivery sent again."): remounting it lost that message.
 */
function Deliveries ({ projectId, endpoint, round }: { projectId: string, endpoint: WebhookEndpoint, round: number }) {
  const [offset, setOffset] = useState(0)
  useEffect(() => { setOffset(0) }, [round])
  const log = useLoad(() => listDeliveries(projectId, endpoint.id, PAGE, offset), [projectId, endpoint.id, offset, round])
  const action = useAction()
  const total = log.data?.total ?? 0
  return (
    <section aria-labelledby='deliveries' class='card'>
      <div class='section-head'>
        <h2 id='deliveries'>Delivery log of {endpoint.url}</h2>
        <button type='button' onClick={() => log.reload()} disabled={log.loading}>Refresh</button>
      </div>
      <ErrorAlert message={action.error ?? log.error} />
      <Status>{action.status}</Status>
      {log.data === undefined
        ? log.loading && <Loading what='deliveries' />
        : log.data.results.length === 0
          ? <p>Nothing sent yet. Send a test event to try the endpoint.</p>
          : (
            <table class='responsive'>
              <caption class='sr-only'>Deliveries, newest first</caption>
              <thead><tr><th scope='col'>Event</th><th scope='col'>Status</th><th scope='col'>Attempts</th><th scope='col'>Last answer</th><th scope='col'>Last error</th><th scope='col'>Created</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
              <tbody>
                {log.data.results.map((d) => (
                  <tr key={d.id}>
                    <td data-label='Event'><code>{d.event}</code></td>
                    <td data-label='Status'>{d.status}{d.status === 'pending' && d.next_attempt_at !== null && d.attempts > 0 ? `, next attempt ${formatDate(d.next_attempt_at)}` : ''}</td>
                    <td data-label='Attempts'>{d.attempts}</td>
                    <td data-label='Last answer'>{d.last_status_code ?? '—'}</td>
                    <td data-label='Last error'>{d.last_error ?? '—'}</td>
                    <td data-label='Created'>{formatDate(d.created_at)}</td>
                    <td data-label='Actions'>
                      {d.status === 'failed' && (
                        <button type='button' disabled={action.pending} onClick={() => { action.run(() => retryDelivery(projectId, endpoint.id, d.id), 'Delivery sent again.').then(() => log.reload()) }}>
                          Retry<span class='sr-only'> delivery of {d.event} created {formatDate(d.created_at)}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
      {total > PAGE && (
        <nav aria-label='Delivery pages' class='pager'>
          <button type='button' disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
          <button type='button' disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Next</button>
        </nav>
      )}
    </section>
  )
}

function Body () {
  const project = useProject()
  const projectId = project.id
  const list = useLoad(() => listWebhooks(projectId), [projectId])
  const action = useAction()
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | undefined>()
  const [editing, setEditing] = useState<string | undefined>()
  const [shown, setShown] = useState<string | undefined>()
  const [logRound, setLogRound] = useState(0)
  const endpoints = list.data ?? []
  const selected = endpoints.find((e) => e.id === shown)

  return (
    <>
      <section aria-labelledby='endpoints' class='card'>
        <h2 id='endpoints'>Endpoints</h2>
        <p class='hint'>
          Each event is POSTed as JSON to the endpoints subscribed to it, signed in <code>X-Chatsearch-Signature</code> (HMAC-SHA256 of
          the timestamp, a dot and the body, under the endpoint's secret), and retried with growing waits until the endpoint answers 2xx.
          Internal addresses are refused.
        </p>
        <form
          class='stack' onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const url = String(new FormData(form).get('url'))
            action.run(() => createWebhook(projectId, url, eventsOf(form)), 'Endpoint added.').then((made) => {
              if (made === undefined) return
              setSecret(made)
              form.reset()
              list.reload()
            })
          }}
        >
          <EndpointFields prefix='new-webhook' />
          <button type='submit' class='primary' disabled={action.pending}>Add endpoint</button>
        </form>
        <ErrorAlert message={action.error ?? list.error} />
        <Status>{action.status}</Status>
        {secret !== undefined && <Secret endpoint={secret} onDismiss={() => setSecret(undefined)} />}
        {list.data === undefined
          ? list.loading && <Loading what='webhook endpoints' />
          : endpoints.length === 0
            ? <p>No endpoints yet.</p>
            : (
              <table class='responsive'>
                <caption class='sr-only'>Webhook endpoints</caption>
                <thead><tr><th scope='col'>URL</th><th scope='col'>Events</th><th scope='col'>State</th><th scope='col'>Created</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
                <tbody>
                  {endpoints.map((w) => (
                    <tr key={w.id}>
                      <td data-label='URL'>
                        {editing === w.id
                          ? (
                            <form
                              class='stack' aria-label={`Edit ${w.url}`} onSubmit={(e) => {
                                e.preventDefault()
                                const form = e.currentTarget
                                const url = String(new FormData(form).get('url'))
                                action.run(() => updateWebhook(projectId, w.id, { url, events: eventsOf(form) }), 'Endpoint saved.').then((saved) => {
                                  if (saved === undefined) return
                                  setEditing(undefined)
                                  list.reload()
                                })
                              }}
                            >
                              <EndpointFields prefix={`edit-${w.id}`} endpoint={w} />
                              <div class='actions'>
                                <button type='submit' class='primary' disabled={action.pending}>Save</button>
                                <button type='button' onClick={() => setEditing(undefined)}>Cancel</button>
                              </div>
                            </form>
                            )
                          : <code>{w.url}</code>}
                      </td>
                      <td data-label='Events'><ul class='plain'>{w.events.map((e) => <li key={e}><code>{e}</code></li>)}</ul></td>
                      <td data-label='State'>{w.enabled ? 'Enabled' : 'Disabled'}</td>
                      <td data-label='Created'>{formatDate(w.created_at)}</td>
                      <td data-label='Actions' class='actions'>
                        <button
                          type='button' disabled={action.pending} onClick={() => {
                            action.run(() => sendTestEvent(projectId, w.id), `Test event queued for ${w.url}.`).then((sent) => {
                              if (sent === undefined) return
                              setShown(w.id)
                              setLogRound((r) => r + 1)
                              // The worker sends at once; the log shows the outcome a moment later.
                              setTimeout(() => setLogRound((r) => r + 1), 1500)
                            })
                          }}
                        >Send test event<span class='sr-only'> to {w.url}</span>
                        </button>
                        <button type='button' onClick={() => setShown(w.id)} aria-pressed={shown === w.id}>Deliveries<span class='sr-only'> of {w.url}</span></button>
                        <button type='button' onClick={() => setEditing(w.id)}>Edit<span class='sr-only'> {w.url}</span></button>
                        <button
                          type='button' disabled={action.pending}
                          onClick={() => { action.run(() => updateWebhook(projectId, w.id, { enabled: !w.enabled }), w.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.').then(() => list.reload()) }}
                        >{w.enabled ? 'Disable' : 'Enable'}<span class='sr-only'> {w.url}</span>
                        </button>
                        <ConfirmButton
                          label='Rotate secret' target={`the secret of ${w.url}`} question='Rotate the signing secret? Deliveries are signed with the new one at once.'
                          onConfirm={() => action.run(() => rotateWebhookSecret(projectId, w.id), 'Signing secret rotated.').then((r) => { if (r !== undefined) setSecret(r) })}
                        />
                        <ConfirmButton
                          label='Delete' target={w.url} question={`Delete ${w.url} and its delivery log? Nothing more is sent to it.`}
                          onConfirm={() => action.run(() => deleteWebhook(projectId, w.id), 'Endpoint deleted.').then(() => {
                            if (shown === w.id) setShown(undefined)
                            list.reload()
                          })}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              )}
      </section>
      {selected !== undefined && <Deliveries key={selected.id} projectId={projectId} endpoint={selected} round={logRound} />}
    </>
  )
}

export function Webhooks ({ id }: { id: string }) {
  return <ProjectFrame id={id} title='Webhooks'><Body /></ProjectFrame>
}
