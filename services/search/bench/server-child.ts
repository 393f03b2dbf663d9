// The parent's side of server.ts's IPC, shared by `pnpm bench` (search.ts) and `pnpm bench cache`.
import type { ChildProcess } from 'node:child_process'
import type { ServerMessage, ServerRequest } from './server.js'

export type ServerReady = Extract<ServerMessage, { type: 'ready' }>
export type ServerLoop = Extract<ServerMessage, { type: 'loop' }>

/** The server's 'ready' message; rejects when it reports a failure, exits first, or is silent for `timeoutMs`. */
export function serverReady (child: ChildProcess, timeoutMs: number): Promise<ServerReady> {
  return new Promise((resolve, reject) => {
    const done = () => { clearTimeout(timer); child.off('message', onMessage); child.off('exit', onExit) }
    const onMessage = (m: ServerMessage) => {
      if (m.type === 'loop') return
      done()
      if (m.type === 'ready') resolve(m)
      else reject(new Error(`the server failed to start:\n${m.error}`))
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => { done(); reject(new Error(`the server exited (${signal ?? code}) before it was ready`)) }
    const timer = setTimeout(() => { done(); reject(new Error(`the server did not start within ${timeoutMs / 1000} s`)) }, timeoutMs)
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

/** Asks for the figures since the last 'loop-reset'; undefined when the server does not answer within 10 s. */
export function readLoop (child: ChildProcess): Promise<ServerLoop | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { child.off('message', on); resolve(undefined) }, 10_000)
    const on = (m: ServerMessage) => { if (m.type === 'loop') { clearTimeout(timer); child.off('message', on); resolve(m) } }
    child.on('message', on)
    child.send({ type: 'loop-read' } satisfies ServerRequest)
  })
}
