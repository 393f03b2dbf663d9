import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { messageOf } from '../api/client.js'
import { signIn } from '../api/session.js'
import { ErrorAlert } from '../components/status.js'
import { useTitle } from '../hooks.js'
import { useSession } from '../session-context.js'

/** Only a path of this app is followed after signing in, never another site. */
const safeNext = (next: string | undefined) => next !== undefined && next.startsWith('/') && !next.startsWith('//') ? next : '/'

export function SignIn () {
  useTitle('Sign in')
  const { query, route } = useLocation()
  const { setSession } = useSession()
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)

  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setPending(true)
    setError(undefined)
    try {
      setSession(await signIn(String(form.get('username')), String(form.get('password'))))
      route(safeNext(query.next), true)
    } catch (err) {
      setError(messageOf(err))
      setPending(false)
    }
  }

  return (
    <main id='main' class='signin'>
      <h1>Sign in to the console</h1>
      <form onSubmit={(e) => { submit(e) }} class='card stack'>
        <ErrorAlert message={error} />
        <label for='username'>Username</label>
        <input id='username' name='username' autocomplete='username' required autoFocus autocapitalize='none' spellcheck={false} />
        <label for='password'>Password</label>
        <input id='password' name='password' type='password' autocomplete='current-password' required />
        <button type='submit' class='primary' disabled={pending}>Sign in</button>
      </form>
    </main>
  )
}
