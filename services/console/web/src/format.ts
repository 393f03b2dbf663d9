import type { Classification } from './api/types.js'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** A timestamp for people, in their own time zone; '—' for none. */
export function formatDate (iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

export const formatPercent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`

/** A wait in the largest unit that keeps it readable: "45 s", "12 min", "3.5 h", "2.1 days". */
export function formatDuration (seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h`
  return `${(seconds / 86400).toFixed(1)} days`
}

/**
 * The classes of a user message with their names. A record rather than the contract's list, whose
 * runtime value would bring the schema library into the bundle; a class added to the contract fails
 * to compile here until it is named.
 */
export const classLabels: Record<Classification, string> = {
  question: 'Question',
  request: 'Request',
  greeting: 'Greeting',
  complaint: 'Complaint',
  feedback: 'Feedback',
  other: 'Other'
}
export const classifications = Object.keys(classLabels) as Classification[]
