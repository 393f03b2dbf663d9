import { addMember, listMembers, removeMember } from '../api/projects.js'
import type { Role } from '../api/types.js'
import { ConfirmButton } from '../components/confirm-button.js'
import { ErrorAlert, Loading, Status } from '../components/status.js'
import { useAction, useLoad } from '../hooks.js'
import { useSession } from '../session-context.js'

/** Who works on the project; its owners add and remove members. */
export function Members ({ projectId, isOwner }: { projectId: string, isOwner: boolean }) {
  const members = useLoad(() => listMembers(projectId), [projectId])
  const action = useAction()
  const { session } = useSession()

  return (
    <section aria-labelledby='members' class='card'>
      <h2 id='members'>Members</h2>
      <ErrorAlert message={action.error ?? members.error} />
      <Status>{action.status}</Status>
      {members.data === undefined
        ? members.loading && <Loading what='members' />
        : (
          <ul class='plain members'>
            {members.data.map((m) => (
              <li key={m.username}>
                <span>{m.username} <span class='badge'>{m.role}</span></span>
                {isOwner && m.username !== session?.username && (
                  <ConfirmButton
                    label='Remove' target={m.username} question={`Remove ${m.username} from the project?`}
                    onConfirm={() => action.run(() => removeMember(projectId, m.username), `${m.username} removed.`).then(() => members.reload())}
                  />
                )}
              </li>
            ))}
          </ul>
          )}
      {isOwner && (
        <form
          class='inline-form' onSubmit={(e) => {
            e.preventDefault()
            const form = e.currentTarget
            const data = new FormData(form)
            const username = String(data.get('username')).trim()
            action.run(() => addMember(projectId, username, String(data.get('role')) as Role), `${username} added.`).then((m) => {
              if (m === undefined) return
              form.reset()
              members.reload()
            })
          }}
        >
          <label for='member-username'>Username</label>
          <input id='member-username' name='username' required autocapitalize='none' spellcheck={false} />
          <label for='member-role'>Role</label>
          <select id='member-role' name='role'>
            <option value='member'>Member</option>
            <option value='owner'>Owner</option>
          </select>
          <button type='submit' disabled={action.pending}>Add member</button>
        </form>
      )}
    </section>
  )
}
