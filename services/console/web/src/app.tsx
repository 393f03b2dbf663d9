import { useEffect, useMemo, useState } from 'preact/hooks'
import { ErrorBoundary, LocationProvider, Route, Router, lazy, useLocation } from 'preact-iso'
import { setUnauthorizedHandler } from './api/client.js'
import { readSession } from './api/session.js'
import type { Session } from './api/types.js'
import { Layout } from './components/layout.js'
import { ErrorAlert, Loading } from './components/status.js'
import { SessionContext, useSession } from './session-context.js'
import { NotFound } from './pages/not-found.js'
import { SignIn } from './pages/signin.js'
import { Projects } from './pages/projects.js'
import { ProjectPage } from './pages/project.js'
import { Catalog } from './pages/catalog.js'
import { Rules } from './pages/rules.js'
import { Knowledge } from './pages/knowledge.js'
import { Chats } from './pages/chats.js'
import { Transcript } from './pages/transcript.js'
import { Playground } from './pages/playground.js'
import { Widget } from './pages/widget.js'
import { Webhooks } from './pages/webhooks.js'

// The charts are the heaviest part of the app: only the analytics page loads them.
const Analytics = lazy(async () => (await import('./pages/analytics.js')).Analytics)

let shownPath = location.pathname

/**
 * After a client-side navigation to another page, focus goes to its heading, as a page load would
 * reset it; a new query on the same page (filters applied) leaves focus where it is.
 */
function focusHeading () {
  if (location.pathname === shownPath) return
  shownPath = location.pathname
  requestAnimationFrame(() => {
    const target = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main')
    target?.focus()
  })
}

const signInPath = (next: string) => next === '/' || next.startsWith('/signin') ? '/signin' : '/signin?next=' + encodeURIComponent(next)

/** The pages behind the session: without one, the user is sent to sign in and brought back afterwards. */
function SignedIn () {
  const { session } = useSession()
  const { url, route } = useLocation()
  useEffect(() => {
    if (session === null) route(signInPath(url), true)
  }, [session, url])
  if (session === null) return null
  return (
    <Layout>
      <ErrorBoundary>
        <Router onRouteChange={focusHeading}>
          <Route path='/' component={Projects} />
          <Route path='/projects/:id' component={ProjectPage} />
          <Route path='/projects/:id/catalog' component={Catalog} />
          <Route path='/projects/:id/rules' component={Rules} />
          <Route path='/projects/:id/knowledge' component={Knowledge} />
          <Route path='/projects/:id/chats' component={Chats} />
          <Route path='/projects/:id/chats/:chat_id' component={Transcript} />
          <Route path='/projects/:id/analytics' component={Analytics} />
          <Route path='/projects/:id/playground' component={Playground} />
          <Route path='/projects/:id/widget' component={Widget} />
          <Route path='/projects/:id/webhooks' component={Webhooks} />
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </Layout>
  )
}

function Pages () {
  const { path, route } = useLocation()
  const { setSession } = useSession()
  useEffect(() => {
    setUnauthorizedHandler(() => {
      setSession(null)
      route(signInPath(location.pathname + location.search), true)
    })
  }, [])
  if (path === '/signin') return <SignIn />
  return <SignedIn />
}

export function App () {
  const [session, setSession] = useState<Session | null>(null)
  const [state, setState] = useState<'checking' | 'ready' | string>('checking')
  useEffect(() => {
    readSession().then((s) => {
      setSession(s)
      setState('ready')
    }, (err: unknown) => setState(err instanceof Error ? err.message : String(err)))
  }, [])
  const value = useMemo(() => ({ session, setSession }), [session])

  if (state === 'checking') return <main id='main'><Loading what='the console' /></main>
  if (state !== 'ready') return <main id='main'><h1>Console</h1><ErrorAlert message={`The console cannot be reached: ${state}`} /></main>
  return (
    <SessionContext.Provider value={value}>
      {/* Paths under /api (downloads) are the server's, not the app's. */}
      <LocationProvider scope={/^\/(?!api\/)/}>
        <Pages />
      </LocationProvider>
    </SessionContext.Provider>
  )
}
