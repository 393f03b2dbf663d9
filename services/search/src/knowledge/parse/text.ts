import type { ParsedPage } from '../types.js'
import { collapseWhitespace } from './headings.js'

/** Plain text as a ParsedPage: a paragraph per run of lines between blank lines, no headings. */
export function parseText (source: string, title: string, url?: string): ParsedPage {
  const blocks = source
    .split(/\r?\n[ \t]*(?:\r?\n[ \t]*)+/)
    .map(collapseWhitespace)
    .filter((text) => text !== '')
    .map((text) => ({ path: [], text }))
  return { title, blocks, ...(url === undefined ? {} : { url }) }
}
