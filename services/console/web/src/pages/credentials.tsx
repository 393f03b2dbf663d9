import { useState } from 'preact/hooks'
import { createCredential, listCredentials, revokeCredential } from '../api/projects.js'
import type { IssuedCredential, Service } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { CopyButton } from '../components/copy-button.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { formatDate } from '../format.js'
import { useAction, useLoad } from '../hooks.js'

interface Props {
  projectId: string
  service: Service
  /** "API Keys" (chat) or "API Tokens" (search). */
  title: string
  /** One of them, in words: "API key". */
  noun: string
  purpose: string
}

/** A new credential, shown once in full. */
export function Revealed ({ credential, noun, onDismiss }: { credential: IssuedCredential, noun: string, onDismiss: () => void }) {
  return (
    <div class='revealed' role='group' aria-label={`New ${noun}`}>
      <p><strong>Copy your new {noun} now.</strong> It is shown only once; the console keeps only its hint.</p>
      <div class='secret-row'>
        <code class='secret' tabIndex={0} aria-label={`New ${noun}`}>{credential.key}</code>
        <CopyButton text={credential.key} what={noun} />
      </div>
      <button type='button' onClick={onDismiss}>I have copied it</button>
    </div>
  )
}

/** The project's credentials for one service: create (shown once), list, revoke. */
export function Credentials ({ projectId, service, title, noun, purpose }: Props) {
  const list = useLoad(() => listCredentials(projectId, service), [projectId, service])
  const action = useAction()
  const [created, setCreated] = useState<IssuedCredential | undefined>()
  const headingId = `credentials-${service}`
  const active = list.data?.filter((c) => c.revoked_at === null) ?? []
  const revoked = list.data?.filter((c) => c.revoked_at !== null) ?? []

  return (
    <section aria-labelledby={headingId} class='card'>
      <div class='section-head'>
        <h2 id={headingId}>{title}</h2>
        <button
          type='button' class='primary' disabled={action.pending} aria-describedby={`${headingId}-purpose`} onClick={() => {
            action.run(() => createCredential(projectId, service), `New ${noun} created.`).then((c) => {
              if (c === undefined) return
              setCreated(c)
              list.reload()
            })
          }}
        >Create
        </button>
      </div>
      <p id={`${headingId}-purpose`} class='hint'>{purpose}</p>
      <ErrorAlert message={action.error ?? list.error} />
      <Status>{action.status}</Status>
      {created !== undefined && <Revealed credential={created} noun={noun} onDismiss={() => setCreated(undefined)} />}
      {list.data === undefined
        ? list.loading && <Loading what={title} />
        : active.length === 0
          ? <p>No active {noun}s.</p>
          : (
            <table class='responsive'>
              <caption class='sr-only'>Active {title}</caption>
              <thead><tr><th scope='col'>User</th><th scope='col'>Hint</th><th scope='col'>Created</th><th scope='col'>Last used</th><th scope='col'><span class='sr-only'>Actions</span></th></tr></thead>
              <tbody>
                {active.map((c) => (
                  <tr key={c.id}>
                    <td data-label='User'>{c.username}</td>
                    <td data-label='Hint'><code>{c.hint}</code></td>
                    <td data-label='Created'>{formatDate(c.created_at)}</td>
                    <td data-label='Last used'>{c.last_used_at === null ? 'Never' : formatDate(c.last_used_at)}</td>
                    <td data-label='Actions'>
                      <ConfirmButton
                        label='Revoke' target={`${noun} ${c.hint}`} question={`Revoke ${c.hint}? Callers using it stop working at once.`}
                        onConfirm={() => action.run(() => revokeCredential(projectId, c.id), `${noun} ${c.hint} revoked.`).then(() => list.reload())}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            )}
      {revoked.length > 0 && (
        <details>
          <summary>Revoked {title} ({revoked.length})</summary>
          <ul class='plain'>
            {revoked.map((c) => <li key={c.id}><code>{c.hint}</code> of {c.username}, revoked {formatDate(c.revoked_at)}</li>)}
          </ul>
        </details>
      )}
    </section>
  )
}
