import { plural } from '../plural.js'

/** A page of a list for people: its lines, then where it sits in the whole when that is not all of it. */
export function pageText (lines: string[], { total, offset }: { total: number, offset: number }, noun: string): string {
  if (total === 0) return `no ${noun}s`
  // --limit 0 counts; an offset past the end says so.
  if (lines.length === 0) return offset < total ? plural(total, noun) : `${plural(total, noun)}, none from offset ${offset}`
  const shown = offset + lines.length
  if (offset === 0 && shown === total) return lines.join('\n')
  return [...lines, `(${offset + 1}–${shown} of ${plural(total, noun)}${shown < total ? `; --offset ${shown} for more` : ''})`].join('\n')
}
