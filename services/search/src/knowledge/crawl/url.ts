/**
 * A URL as the crawl compares them: resolved against `base`, parsed the WHATWG way (lower-case host,
 * default port dropped, path dot-segments resolved, percent-encoding normalised), without its
 * fragment. Undefined for what is not an http(s) URL (mailto:, javascript:, a broken href).
 */
export function normaliseUrl (href: string, base?: string | URL): URL | undefined {
  let url: URL
  try {
    url = new URL(href.trim(), base)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  url.hash = ''
  return url
}

/** Scheme, host and port: what a crawl stays within. */
export function sameOrigin (a: URL, b: URL): boolean {
  return a.origin === b.origin
}
