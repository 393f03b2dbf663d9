/**
 * A filter that cannot be used: a syntax error, a limit exceeded, or an attribute that is not
 * filterable. `position` is the 0-based offset of the offending place in the filter string, counted in
 * characters (Unicode code points, as Meilisearch counts them), or -1 when unknown.
 */
export class FilterError extends Error {
  readonly position: number

  constructor (message: string, position: number) {
    super(message)
    this.name = 'FilterError'
    this.position = position
  }
}

/** The number of code points in `text` before the UTF-16 index `index`. */
export function codePointOffset (text: string, index: number): number {
  let count = 0
  for (let i = 0; i < index && i < text.length; i++) {
    const c = text.charCodeAt(i)
    // A low surrogate that follows a high surrogate belongs to the same code point.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1)
      if (p >= 0xd800 && p <= 0xdbff) continue
    }
    count++
  }
  return count
}

const EXCERPT_BEFORE = 40
const EXCERPT_AFTER = 30

/** Moves a UTF-16 index off the second half of a surrogate pair. */
function boundary (text: string, index: number): number {
  const c = text.charCodeAt(index)
  return c >= 0xdc00 && c <= 0xdfff && index > 0 ? index - 1 : index
}

/** Shows line breaks, tabs and other control characters as escapes so a message stays on one line. */
export function printable (text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => {
    if (c === '\n') return '\\n'
    if (c === '\r') return '\\r'
    if (c === '\t') return '\\t'
    return `\\u{${c.charCodeAt(0).toString(16)}}`
  })
}

/** Shortens a piece of the filter quoted in a message. */
export function clip (text: string, max = 40): string {
  if (text.length <= max) return printable(text)
  return printable(text.slice(0, boundary(text, max))) + '…'
}

/** The part of `text` around the UTF-16 index `index`, for a message. */
export function excerpt (text: string, index: number): string {
  if (text.length <= EXCERPT_BEFORE + EXCERPT_AFTER) return printable(text)
  const from = Math.max(0, boundary(text, index - EXCERPT_BEFORE))
  const to = Math.min(text.length, boundary(text, index + EXCERPT_AFTER))
  return (from > 0 ? '…' : '') + printable(text.slice(from, to)) + (to < text.length ? '…' : '')
}

/**
 * A syntax error at the UTF-16 index `index` of `text`: the message says what was wrong, then where,
 * e.g. ``Was expecting a value but instead got nothing, at position 8: `price > ` ``.
 */
export function syntaxError (text: string, index: number, detail: string): FilterError {
  const position = codePointOffset(text, index)
  return new FilterError(`${detail}, at position ${position}: \`${excerpt(text, index)}\``, position)
}
