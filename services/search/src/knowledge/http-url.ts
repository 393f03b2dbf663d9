import { textProblem } from '@chatsearch/shell'

/**
 * Whether a URL a client gives for its knowledge (a crawl's start, an upload's link) is one: http or
 * https, parsed by WHATWG's rules as the crawler and the replies will parse it (a port over 65535
 * or "http://%00/" is not), and clean text (no NUL, no lone surrogate), since replies quote it.
 */
export function isHttpUrl (value: string): boolean {
  if (!/^https?:\/\//i.test(value) || textProblem(value) !== undefined || !URL.canParse(value)) return false
  const { protocol, hostname } = new URL(value)
  return (protocol === 'http:' || protocol === 'https:') && hostname !== ''
}
