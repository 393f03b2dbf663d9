import type { HtmlDocument } from '../parse/html.js'
import { normaliseUrl } from './url.js'

/** What the crawler needs from a page besides its main content. */
export interface PageLinks {
  title: string
  /** `<link rel=canonical>` resolved against the page, when it has a usable one. */
  canonical?: URL
  /** `<a href>` targets, resolved, without fragments, in document order, each once. */
  links: URL[]
  /** `<meta name=robots>` (or our own bot's name) and the X-Robots-Tag header together. */
  noindex: boolean
  nofollow: boolean
}

/**
 * Reads links, canonical, title and robots directives out of a page fetched from `pageUrl`, before its
 * main content is read from the same document (readContent takes it apart).
 */
export function extractLinks (document: HtmlDocument, pageUrl: URL, robotsHeader: string | undefined, botName: string): PageLinks {
  // <base href> changes what relative links mean; only an http(s) one is honoured.
  const baseHref = document.querySelector('base[href]')?.getAttribute('href')
  const base = (baseHref != null ? normaliseUrl(baseHref, pageUrl) : undefined) ?? pageUrl

  const directives = new Set(splitDirectives(robotsHeader))
  for (const meta of document.querySelectorAll('meta[name][content]')) {
    const name = (meta.getAttribute('name') ?? '').toLowerCase()
    if (name === 'robots' || name === botName.toLowerCase()) for (const d of splitDirectives(meta.getAttribute('content'))) directives.add(d)
  }

  let canonical: URL | undefined
  for (const link of document.querySelectorAll('link[rel][href]')) {
    if (relTokens(link.getAttribute('rel')).includes('canonical')) {
      canonical = normaliseUrl(link.getAttribute('href') ?? '', base)
      break
    }
  }

  const links: URL[] = []
  const seen = new Set<string>()
  for (const a of document.querySelectorAll('a[href]')) {
    // rel=nofollow says the site does not vouch for the target: the crawl leaves it alone.
    if (relTokens(a.getAttribute('rel')).includes('nofollow')) continue
    const url = normaliseUrl(a.getAttribute('href') ?? '', base)
    if (url === undefined || seen.has(url.href)) continue
    seen.add(url.href)
    links.push(url)
  }

  return {
    title: (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    ...(canonical === undefined ? {} : { canonical }),
    links,
    noindex: directives.has('noindex') || directives.has('none'),
    nofollow: directives.has('nofollow') || directives.has('none')
  }
}

function splitDirectives (value: string | null | undefined): string[] {
  return (value ?? '').toLowerCase().split(/[\s,]+/).filter((d) => d !== '')
}

function relTokens (value: string | null): string[] {
  return (value ?? '').toLowerCase().split(/\s+/)
}
