import type { ComponentChildren } from 'preact'

/** An error, announced at once by screen readers. Rendered empty so the live region exists before it fills. */
export function ErrorAlert ({ message }: { message: string | undefined }) {
  return <div role='alert' class={message === undefined ? 'alert alert-empty' : 'alert'}>{message}</div>
}

/** Progress and outcomes, announced politely. */
export function Status ({ children }: { children?: ComponentChildren }) {
  return <p role='status' aria-live='polite' class='status'>{children}</p>
}

export function Loading ({ what }: { what: string }) {
  return <p role='status' aria-live='polite' class='status'>Loading {what}…</p>
}
