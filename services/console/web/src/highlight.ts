/**
 * A hit's `_formatted` text as pieces to render as text nodes. The search service HTML-escapes the
 * item's text and inserts its default highlight tags (the console sends none of its own): exactly
 * `<em>` and `</em>` mark a match, and anything else, markup written into an item included, stays text.
 */
export interface Piece {
  text: string
  marked: boolean
}

const PRE_TAG = '<em>'
const POST_TAG = '</em>'
const TAGS = /(<em>|<\/em>)/
/** The escapes the search service writes (its escapeHtml), undone: the pieces are text, not HTML. */
const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const unescape = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (escape) => ESCAPED[escape]!)

export function highlightPieces (formatted: string): Piece[] {
  const pieces: Piece[] = []
  let marked = false
  for (const part of formatted.split(TAGS)) {
    if (part === PRE_TAG) marked = true
    else if (part === POST_TAG) marked = false
    else if (part !== '') pieces.push({ text: unescape(part), marked })
  }
  return pieces
}
