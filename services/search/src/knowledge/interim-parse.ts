/**
 * INTERIM parsing of a page sent as JSON, to be replaced by parse/markdown.ts, parse/html.ts and
 * parse/text.ts when the knowledge branches merge: Markdown headings and paragraphs, HTML reduced to
 * those, plain text by paragraphs.
 */
import type { Block, ParsedPage } from './types.js'

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/
const FENCE = /^\s*(```|~~~)/

/** GitHub's anchor for a heading: lower case, spaces as `-`, punctuation dropped. */
function slug (heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')
}

function markdownBlocks (content: string): Block[] {
  const blocks: Block[] = []
  const path: string[] = []
  let anchor: string | undefined
  let paragraph: string[] = []
  let fenced = false
  const flush = () => {
    const text = paragraph.join('\n').trim()
    if (text !== '') blocks.push({ path: [...path], ...(anchor === undefined ? {} : { anchor }), text })
    paragraph = []
  }
  for (const line of content.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced
    const heading = fenced ? null : HEADING.exec(line)
    if (heading !== null) {
      flush()
      const level = heading[1]!.length
      path.length = Math.min(path.length, level - 1)
      path.push(heading[2]!)
      anchor = slug(heading[2]!)
    } else if (!fenced && line.trim() === '') {
      flush()
    } else {
      paragraph.push(line)
    }
  }
  flush()
  return blocks
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: ' ' }

function htmlAsMarkdown (html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi, (_, level: string, text: string) => `\n\n${'#'.repeat(Number(level))} ${text.replace(/<[^>]*>/g, '').trim()}\n\n`)
    .replace(/<\/(p|div|li|tr|section|article)>|<br\s*\/?>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
}

export function parseContent (title: string, content: string, format: 'markdown' | 'html' | 'text', url?: string): ParsedPage {
  let blocks: Block[]
  if (format === 'text') blocks = content.split(/\r?\n\s*\r?\n/).map((text) => ({ path: [], text: text.trim() })).filter((b) => b.text !== '')
  else blocks = markdownBlocks(format === 'html' ? htmlAsMarkdown(content) : content)
  return { title, blocks, ...(url === undefined ? {} : { url }) }
}
