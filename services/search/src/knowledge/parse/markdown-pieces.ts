import type { Nodes, Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'

/**
 * GitHub's Markdown, less the pass that turns web and mail addresses left in text into link nodes
 * (a sixth of the time): a link and its text read the same here. micromark's own reading of such
 * addresses, which decides whether a `_` in them starts emphasis, is kept.
 */
const options = { extensions: [gfm()], mdastExtensions: gfmFromMarkdown().map(({ transforms, ...extension }) => extension) }
const parse = (source: string): Root => fromMarkdown(source, options)

/**
 * A Markdown document as the trees of its pieces, in order: read one after another, they say what the
 * tree of the whole document says. micromark rewrites a document's whole list of events each time a
 * list, quote or footnote closes, so its time grew with the square of their number (4,000 sections of
 * a short list took 5.4 s, 8,000 quotes 10 s); in pieces of a few KB, a close costs what its piece holds.
 *
 * A piece starts where the document reads on as a new one would (cutsOf); each cut is checked against
 * the tree of the piece before it (readsOn). Definitions are the one thing a part of a document gives
 * the others (withDefinitions).
 */
export function parsePieces (source: string): Root[] {
  const texts = cutsOf(source)
  const trees: Root[] = []
  for (let i = 0; i < texts.length; i++) {
    const tree = parse(texts[i]!)
    if (i + 1 < texts.length && !readsOn(texts[i]!, tree, texts[i + 1]!)) {
      // The line scan was wrong here (about a fence in a list, say): the rest is read whole.
      texts.splice(i, texts.length - i, texts.slice(i).join(''))
      trees.push(parse(texts[i]!))
      break
    }
    trees.push(tree)
  }
  return withDefinitions(texts, trees)
}

/** Pieces of at least this many characters: each parse has a fixed cost, and a piece of lists a quadratic one. */
const MIN_PIECE = 2000
const HEADING = /^#{1,6}(?:[ \t\r]|$)/
const BULLET = /^[-+*][ \t]+[^ \t\r]/
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/
const BLANK = /^[ \t]*\r?$/
/** HTML blocks that run to a marker, blank lines included (CommonMark's kinds 1 to 5), and their ends. */
const HTML_TO_MARKER: Array<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|\r?$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/]
]

/**
 * The source cut, once a piece has MIN_PIECE characters, before a line that starts with a heading or a
 * bullet (`- x`), or that follows a blank line and starts with neither space nor tab: there quotes and
 * paragraphs close and a list either closes or takes a new item, which reads the same split. Not inside
 * a fenced code or HTML block, as a line scan that knows nothing of lists and quotes sees them; any line
 * starting with `<` other than those that run to a marker is taken for a block that runs to a blank
 * line, which at worst cuts less.
 */
function cutsOf (source: string): string[] {
  const pieces: string[] = []
  let start = 0
  let fence: { marker: string, length: number } | undefined
  let htmlEnd: RegExp | 'blank' | undefined
  let afterBlank = false
  // micromark keeps indented code open over blank lines, and `2. x` or `-` after it then stays a paragraph.
  let afterIndented = false
  for (let at = 0; at < source.length;) {
    const newline = source.indexOf('\n', at)
    const end = newline === -1 ? source.length : newline + 1
    const line = source.slice(at, newline === -1 ? source.length : newline)
    if (fence !== undefined) {
      const close = FENCE.exec(line)
      if (close !== null && close[1]![0] === fence.marker && close[1]!.length >= fence.length && BLANK.test(close[2]!)) fence = undefined
    } else if (htmlEnd !== undefined) {
      if (htmlEnd === 'blank' ? BLANK.test(line) : htmlEnd.test(line)) htmlEnd = undefined
    } else {
      if (at - start >= MIN_PIECE && (HEADING.test(line) || BULLET.test(line) || (afterBlank && !afterIndented && /^[^ \t\r]/.test(line)))) {
        pieces.push(source.slice(start, at))
        start = at
      }
      const open = FENCE.exec(line)
      if (open !== null && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
        fence = { marker: open[1]![0]!, length: open[1]!.length }
      } else if (/^ {0,3}</.test(line)) {
        const kind = HTML_TO_MARKER.find(([opens]) => opens.test(line))
        if (kind === undefined) htmlEnd = 'blank'
        else if (!kind[1].test(line.slice(line.indexOf('<') + 2))) htmlEnd = kind[1]
      }
    }
    afterBlank = BLANK.test(line)
    if (!afterBlank) afterIndented = /^(?: {4}| {0,3}\t)/.test(line)
    at = end
  }
  pieces.push(source.slice(start))
  return pieces
}

/**
 * Whether the line that starts `next` begins a block of its own after `text`, as it does at the start
 * of a piece: only a fenced code or HTML block still open would take it in.
 */
function readsOn (text: string, tree: Root, next: string): boolean {
  const last = tree.children[tree.children.length - 1]
  if (last === undefined || (last.type !== 'code' && last.type !== 'html')) return true
  const tail = text.slice(last.position!.start.offset!)
  const probe = parse(tail + next.split('\n', 1)[0]!)
  return probe.children[probe.children.length - 1]!.position!.start.offset! >= tail.length
}

/** A label as micromark and mdast compare them (mdast's `identifier`). */
const identifier = (label: string) => label.replace(/[\t\n\r ]+/g, ' ').trim().toLowerCase().toUpperCase().toLowerCase()
/** Every bracketed run a reference could use as its label (footnote calls keep their `^`). */
const BRACKETED = /\[((?:[^[\]\\]|\\[^]){1,999})\]/g

/**
 * The trees again, each piece that uses a label (`[text][label]`, `[label]`, `[^label]`) defined only
 * in another piece read again after a stand-in definition of it (`[label]: x`), whose nodes are then
 * left out: whether a reference is a link or stays text depends only on whether its label is defined.
 */
function withDefinitions (texts: string[], trees: Root[]): Root[] {
  const defined = trees.map((tree) => definitionsIn(tree))
  const everywhere = new Map<string, string>()
  for (const labels of defined) for (const [key, stub] of labels) if (!everywhere.has(key)) everywhere.set(key, stub)
  if (everywhere.size === 0) return trees
  return trees.map((tree, i) => {
    const stubs = new Set<string>()
    for (const [, label] of texts[i]!.matchAll(BRACKETED)) {
      const key = label!.startsWith('^') ? '^' + identifier(label!.slice(1)) : identifier(label!)
      const stub = everywhere.get(key)
      if (stub !== undefined && !defined[i]!.has(key)) stubs.add(stub)
    }
    if (stubs.size === 0) return tree
    // A thematic break ends a stand-in footnote, which would take in a piece starting with indented code.
    const prefix = [...stubs].join('\n\n') + '\n\n***\n\n'
    const again = parse(prefix + texts[i]!)
    again.children = again.children.filter((node) => node.position!.start.offset! >= prefix.length)
    return again
  })
}

/** The labels a tree defines, each with a stand-in definition (an identifier is its own label, escapes kept). */
function definitionsIn (tree: Root): Map<string, string> {
  const found = new Map<string, string>()
  const visit = (node: Nodes): void => {
    if (node.type === 'definition') found.set(node.identifier, `[${node.identifier}]: x`)
    if (node.type === 'footnoteDefinition') found.set('^' + node.identifier, `[^${node.identifier}]: x`)
    if ('children' in node) for (const child of node.children) visit(child)
  }
  visit(tree)
  return found
}
