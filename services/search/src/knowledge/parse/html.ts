import { Readability } from '@mozilla/readability'
import { Parser } from 'htmlparser2'
import { parseHTML } from 'linkedom'
import type { Block, ParsedPage } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { HeadingPath, collapseWhitespace } from './headings.js'

/**
 * Deeper than real pages nest (a few dozen levels). htmlparser2 keeps its open elements with `unshift`,
 * so its time grows with the square of the depth, and Readability's faster still: 100,000 nested divs
 * took 8 s to parse and then overflowed Readability's stack, and 256 took Readability 2.4 s, 128 0.3 s.
 * The depth is checked before either runs.
 */
export const MAX_HTML_DEPTH = 128
/** Readability gives up (throws) on a page with more elements than this, rather than take seconds. */
const MAX_ELEMENTS = 100_000

/** An HTML file or page as a ParsedPage: its main content only (no navigation, footers, scripts). */
export function parseHtml (html: string, fallbackTitle: string, url?: string): ParsedPage {
  const document = loadHtml(html)
  return readContent(document, collapseWhitespace(document.querySelector('title')?.textContent ?? '') || fallbackTitle, url)
}

/** A parsed HTML page, as loadHtml gives it. */
export type HtmlDocument = ReturnType<typeof parseHTML>['document']
type El = HtmlDocument['documentElement']

/** An HTML page as a DOM; a FileRejected when it nests elements deeper than MAX_HTML_DEPTH. */
export function loadHtml (html: string): HtmlDocument {
  checkDepth(html)
  // linkedom makes a fragment's first element the root (`<p>` holding an empty body): give it a page.
  return parseHTML(/<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`).document
}

function checkDepth (html: string): void {
  let depth = 0
  const tooDeep = new Error('too deep')
  const parser = new Parser({
    onopentag () { if (++depth > MAX_HTML_DEPTH) throw tooDeep },
    onclosetag () { depth-- }
  }, { decodeEntities: false })
  try {
    parser.end(html)
  } catch (error) {
    if (error !== tooDeep) throw error
    throw new FileRejected('invalid_file', `the HTML nests elements more than ${MAX_HTML_DEPTH} deep`)
  }
}

/** Never content, whatever Readability decides. */
const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, footer, form, button, select, dialog'

/**
 * A loaded page's main content as a ParsedPage. Readability takes the document apart: read anything
 * else from it first. A FileRejected when the page has more than MAX_ELEMENTS elements.
 */
export function readContent (document: HtmlDocument, title: string, url?: string): ParsedPage {
  for (const element of [...document.querySelectorAll(DROPPED)]) element.remove()
  // Readability turns h1 into h2; the level it had is kept aside so the heading path stays true.
  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) heading.setAttribute('data-kn-level', heading.tagName.slice(1))
  let root: El | null = null
  try {
    // The article's element itself, rather than its HTML to be parsed again (a fifth of the time).
    const article = new Readability<El>(document as unknown as ConstructorParameters<typeof Readability>[0], {
      maxElemsToParse: MAX_ELEMENTS, keepClasses: false, serializer: (element) => element as unknown as El
    }).parse()
    if (article?.content != null && collapseWhitespace(article.textContent ?? '') !== '') root = article.content
  } catch (error) {
    if ((error as Error).message.includes('Aborting parsing document')) {
      throw new FileRejected('invalid_file', `the HTML has more than ${MAX_ELEMENTS} elements`)
    }
    throw error
  }
  // A page Readability finds no article in (a short help page) is read whole, less what is dropped above.
  const walker = new HtmlWalker()
  walker.walk(root ?? document.body ?? document.documentElement)
  return { title, blocks: walker.blocks, ...(url === undefined ? {} : { url }) }
}

/** Elements whose text is not part of the running text around them. */
const BLOCK_TAGS = new Set(['address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul'])

class HtmlWalker {
  readonly blocks: Block[] = []
  private readonly headings = new HeadingPath()
  private anchor: string | undefined
  private inline: string[] = []

  /** Depth is bounded by MAX_HTML_DEPTH, so recursion is safe here. */
  walk (element: El): void {
    const tag = element.tagName.toLowerCase()
    const id = element.getAttribute('id')
    if (id !== null && id !== '' && !id.startsWith('readability-')) this.anchor = id
    if (/^h[1-6]$/.test(tag)) return this.heading(element, tag)
    if (tag === 'pre') return this.add(element.textContent?.trim() ?? '')
    if (tag === 'tr') {
      return this.add([...element.children].map((cell) => collapseWhitespace(cell.textContent ?? '')).filter((cell) => cell !== '').join(' | '))
    }
    for (const child of element.childNodes) {
      if (child.nodeType === 3) this.inline.push(child.textContent ?? '')
      else if (child.nodeType === 1) {
        const childTag = (child as El).tagName.toLowerCase()
        if (BLOCK_TAGS.has(childTag) || childTag === 'tr' || childTag === 'tbody' || childTag === 'thead' || childTag === 'tfoot') {
          this.flush()
          this.walk(child as El)
        } else if (childTag === 'br') {
          this.inline.push(' ')
        } else if (holdsBlock(child as El)) {
          // An inline element holding blocks (an <a> around a card) is read as a container.
          this.flush()
          this.walk(child as El)
        } else {
          this.inline.push(child.textContent ?? '')
        }
      }
    }
    this.flush()
  }

  private heading (element: El, tag: string): void {
    this.flush()
    const text = collapseWhitespace(element.textContent ?? '')
    const inner = firstAnchorIn(element)
    const own = element.getAttribute('id') ?? inner?.getAttribute('id') ?? inner?.getAttribute('name')
    if (own !== null && own !== undefined && own !== '') this.anchor = own
    if (text === '') return
    const level = Number(element.getAttribute('data-kn-level') ?? tag.slice(1))
    this.headings.enter(level, text)
  }

  private flush (): void {
    const text = collapseWhitespace(this.inline.join(''))
    this.inline = []
    this.add(text)
  }

  private add (text: string): void {
    if (text === '') return
    this.blocks.push({ path: this.headings.path, ...(this.anchor === undefined ? {} : { anchor: this.anchor }), text })
  }
}

/*
 * Element by element rather than with querySelector: linkedom compiles a selector anew on every call,
 * which took a fifth of the walk over a large page.
 */

/** Whether an element holds a block element (an `<a>` around a card). */
function holdsBlock (element: El): boolean {
  for (const child of element.children) if (BLOCK_TAGS.has(child.tagName.toLowerCase()) || holdsBlock(child)) return true
  return false
}

/** The first element inside a heading, in document order, that a link can land on: one with an id, or `<a name>`. */
function firstAnchorIn (element: El): El | undefined {
  for (const child of element.children) {
    if (child.hasAttribute('id') || (child.tagName.toLowerCase() === 'a' && child.hasAttribute('name'))) return child
    const inner = firstAnchorIn(child)
    if (inner !== undefined) return inner
  }
  return undefined
}
