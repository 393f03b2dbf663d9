import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Session } from './api/types.js'

export interface SessionState {
  session: Session | null
  setSession: (session: Session | null) => void
}

export const SessionContext = createContext<SessionState>({ session: null, setSession: () => {} })
export const useSession = () => useContext(SessionContext)
