import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { messageOf } from './api/client.js'

export interface Loaded<T> {
  data: T | undefined
  error: string | undefined
  loading: boolean
  reload: () => void
}

/**
 * Loads data when the component mounts and whenever `deps` change; a load overtaken by a newer one
 * is dropped, so a slow answer never overwrites a fresh one.
 */
export function useLoad<T> (load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined, error: string | undefined, loading: boolean }>({ data: undefined, error: undefined, loading: true })
  const [round, setRound] = useState(0)
  const latest = useRef(0)
  useEffect(() => {
    const mine = ++latest.current
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => { if (mine === latest.current) setState({ data, error: undefined, loading: false }) },
      (err: unknown) => { if (mine === latest.current) setState((s) => ({ ...s, error: messageOf(err), loading: false })) }
    )
    // `deps` stand for what `load` reads; `load` itself is a new function each render.
  }, [...deps, round])
  const reload = useCallback(() => setRound((r) => r + 1), [])
  return { ...state, reload }
}

/** Runs an action, keeping its pending state and its error or success message for the page to show. */
export function useAction () {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const [status, setStatus] = useState<string | undefined>()
  const run = useCallback(async <T>(action: () => Promise<T>, success?: string | ((result: T) => string)): Promise<T | undefined> => {
    setPending(true)
    setError(undefined)
    setStatus(undefined)
    try {
      const result = await action()
      if (success !== undefined) setStatus(typeof success === 'string' ? success : success(result))
      return result
    } catch (err) {
      setError(messageOf(err))
      return undefined
    } finally {
      setPending(false)
    }
  }, [])
  return { pending, error, status, run, setError, setStatus }
}

/** Sets the window's title, which screen readers announce on navigation. */
export function useTitle (title: string) {
  useEffect(() => { document.title = `${title} · Console` }, [title])
}
