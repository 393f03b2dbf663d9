import type { ComponentChildren } from 'preact'
import { useLocation } from 'preact-iso'
import { signOut } from '../api/session.js'
import { useSession } from '../session-context.js'

/** The frame of every signed-in page: a skip link, the banner with the user's menu, and the main region. */
export function Layout ({ children }: { children: ComponentChildren }) {
  const { session, setSession } = useSession()
  const { route } = useLocation()
  return (
    <>
      <a class='skip-link' href='#main'>Skip to content</a>
      <header class='banner'>
        <a class='brand' href='/'>Chat &amp; Search Console</a>
        <nav aria-label='Account' class='account'>
          <span class='who'>Signed in as <strong>{session?.username}</strong></span>
          <button
            type='button' onClick={() => {
              signOut().finally(() => {
                setSession(null)
                route('/signin')
              })
            }}
          >Sign out
          </button>
        </nav>
      </header>
      <main id='main' tabIndex={-1}>{children}</main>
    </>
  )
}
