// Replies and citations come from the network: a link is made only of an http(s) URL, and text is
// only ever set as text.

/** The URL when it is an absolute http or https one, else undefined (no javascript:, data:, …). */
export function safeHref (url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined
  } catch {
    return undefined
  }
}

export interface Segment { text: string, href?: string }

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g

/** A reply cut into plain text and the http(s) URLs it quotes (a sentence's final punctuation left out). */
export function segments (text: string): Segment[] {
  const out: Segment[] = []
  let at = 0
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const raw = match[0].replace(/[.,;:!?)\]]+$/, '')
    const start = match.index
    const href = safeHref(raw)
    if (href === undefined) continue
    if (start > at) out.push({ text: text.slice(at, start) })
    out.push({ text: raw, href })
    at = start + raw.length
  }
  if (at < text.length) out.push({ text: text.slice(at) })
  return out
}
