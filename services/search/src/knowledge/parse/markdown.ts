import GithubSlugger from 'github-slugger'
import type { Nodes, Parents } from 'mdast'
import { toString } from 'mdast-util-to-string'
import type { Block, ParsedPage } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { HeadingPath, collapseWhitespace } from './headings.js'
import { parsePieces } from './markdown-pieces.js'

/** Deeper than any real document nests its quotes and lists; micromark's time grows with the square of it. */
const MAX_NESTING = 32
/** A line's container markers (`>`, list bullets and numbers) before its text. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*/gm

/**
 * Markdown that micromark would take minutes on, refused or flattened first: quotes and lists nested
 * past MAX_NESTING are refused, and a run of one delimiter (`*`, `_`, `[`…) longer than 32 is cut to 32,
 * which changes nothing a reader sees but keeps emphasis resolution from going quadratic.
 */
function bounded (source: string): string {
  for (const prefix of source.match(CONTAINER_PREFIX) ?? []) {
    const markers = prefix.replace(/[ \t]/g, '').replace(/\d{1,9}/g, '').length
    const indent = /^[ \t]*/.exec(prefix)![0].length
    if (markers > MAX_NESTING || indent > MAX_NESTING * 4) {
      throw new FileRejected('invalid_file', `the Markdown nests quotes or lists more than ${MAX_NESTING} levels deep`)
    }
  }
  return source.replace(/([*_`~[\]()<>])\1{32,}/g, (run) => run.slice(0, 32))
}

/**
 * Markdown (CommonMark with GitHub's tables, task lists and strikethrough) as a ParsedPage: headings
 * make the path, and each paragraph, list item, table row, code block and HTML block is a Block whose
 * anchor is the slug GitHub gives the nearest heading above it, so `page#anchor` lands there.
 */
export function parseMarkdown (source: string, fallbackTitle: string, url?: string): ParsedPage {
  const reader = new MarkdownReader()
  for (const tree of parsePieces(bounded(source))) reader.read(tree)
  return {
    title: reader.firstH1 ?? fallbackTitle,
    blocks: reader.blocks,
    ...(url === undefined ? {} : { url })
  }
}

class MarkdownReader {
  readonly blocks: Block[] = []
  firstH1: string | undefined
  private readonly headings = new HeadingPath()
  private readonly slugger = new GithubSlugger()
  private anchor: string | undefined

  read (node: Nodes): void {
    switch (node.type) {
      case 'heading': {
        const text = collapseWhitespace(toString(node))
        // GitHub slugs every heading, empty ones too, so the counter for repeated slugs must see them all.
        this.anchor = this.slugger.slug(toString(node))
        if (text === '') return
        if (node.depth === 1 && this.firstH1 === undefined) this.firstH1 = text
        this.headings.enter(node.depth, text)
        return
      }
      case 'paragraph':
        this.add(collapseWhitespace(toString(node)))
        return
      case 'code':
        this.add(node.value.trim())
        return
      case 'html':
        // Raw HTML in Markdown is kept as the words a reader would see, without its tags.
        this.add(collapseWhitespace(node.value.replace(/<[^>]*>/g, ' ')))
        return
      case 'listItem':
        this.readListItem(node)
        return
      case 'tableRow':
        this.add(node.children.map((cell) => collapseWhitespace(toString(cell))).join(' | '))
        return
      case 'definition':
      case 'thematicBreak':
      case 'yaml' as string:
        return
      default:
        if ('children' in node) for (const child of (node as Parents).children) this.read(child)
    }
  }

  /** A list item is one block of its own text; the lists nested in it are blocks of their own. */
  private readListItem (item: Extract<Nodes, { type: 'listItem' }>): void {
    const own = item.children.filter((child) => child.type === 'paragraph').map((child) => collapseWhitespace(toString(child)))
    const checkbox = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : ''
    this.add(own.length === 0 ? '' : checkbox + own.join(' '))
    for (const child of item.children) if (child.type !== 'paragraph') this.read(child)
  }

  private add (text: string): void {
    if (text === '') return
    this.blocks.push({ path: this.headings.path, ...(this.anchor === undefined ? {} : { anchor: this.anchor }), text })
  }
}
