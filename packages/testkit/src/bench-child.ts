// What a bench's child process (the servers under test, an engine run) uses to talk to the bench.
import type { Server } from 'node:net'

/**
 * Sends `message` to the parent over IPC, resolving once it is written, so that a child may exit
 * right after; with no parent (run by hand), at once.
 */
export function toParent<M> (message: M): Promise<void> {
  return new Promise<void>((resolve) => {
    if (process.send === undefined) return resolve()
    process.send(message, undefined, {}, () => resolve())
  })
}

/** The TCP port an app (anything with a `server`) listens on. */
export function listeningPort (app: { server: Server }): number {
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port')
  return address.port
}
