import type { Block, Chunk, ParsedPage } from './types.js'

/** Sizes in characters that embed well: small enough to be about one thing, large enough to answer. */
export interface ChunkOptions {
  /** Blocks of one section are merged while the chunk stays at most this long. */
  target?: number
  /** No chunk is longer; a block longer is split between sentences. */
  max?: number
}

export const CHUNK_TARGET = 800
export const CHUNK_MAX = 1200
export const SECTION_SEPARATOR = ' › '

/**
 * A page as chunks: a chunk never spans two sections (blocks with different heading paths or anchors),
 * keeps its section's heading path, never cuts a sentence unless the sentence alone is longer than `max`
 * (then at a word boundary, at a character only for a word longer than `max`), and carries the page's URL
 * with the nearest anchor. Small consecutive blocks of a section are merged up to `target`.
 */
export function chunkPage (page: ParsedPage, options: ChunkOptions = {}): Chunk[] {
  const max = options.max ?? CHUNK_MAX
  const target = Math.min(options.target ?? CHUNK_TARGET, max)
  const chunks: Chunk[] = []
  let open: { block: Block, text: string } | undefined
  const close = (): void => {
    if (open === undefined) return
    const section = open.block.path.join(SECTION_SEPARATOR)
    const url = urlOf(page.url, open.block.anchor)
    chunks.push({ id: String(chunks.length), section, text: open.text, ...(url === undefined ? {} : { url }) })
    open = undefined
  }
  for (const block of page.blocks) {
    for (const piece of pieces(block.text.trim(), max)) {
      if (open !== undefined && sameSection(open.block, block) && open.text.length + 1 + piece.length <= target) {
        // Blocks stay apart as lines; the pieces of one split block are rejoined as they were, by a space.
        open.text += (open.block === block ? ' ' : '\n') + piece
        continue
      }
      close()
      open = { block, text: piece }
    }
  }
  close()
  return chunks
}

/** A question-and-answer pair as its one chunk: both are in the text, so a search for either finds it. */
export function faqChunks (question: string, answer: string, url?: string): Chunk[] {
  return [{ id: '0', section: '', text: `${question.trim()}\n${answer.trim()}`, ...(url === undefined ? {} : { url }) }]
}

function sameSection (a: Block, b: Block): boolean {
  return a.anchor === b.anchor && a.path.length === b.path.length && a.path.every((heading, i) => heading === b.path[i])
}

function urlOf (pageUrl: string | undefined, anchor: string | undefined): string | undefined {
  if (pageUrl === undefined) return undefined
  const url = pageUrl.replace(/#.*$/s, '')
  return anchor === undefined ? url : `${url}#${anchor}`
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })
const words = new Intl.Segmenter('en', { granularity: 'word' })

/**
 * Node 20's sentence segmenter takes time that grows faster than the square of the text (4,000
 * sentences: 5 s; 16,000: 73 s), so a long text is segmented a window at a time. A window ends at a
 * space, and its last sentence, which the window may have cut, is segmented again with the next one, so
 * the sentences are those of the whole text. Only a sentence longer than a window is cut at its edge.
 */
const SEGMENT_WINDOW = 4096

function * sentencesOf (text: string): Generator<string> {
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + SEGMENT_WINDOW)
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end)
      if (space > start) end = space
    }
    const segments = [...sentences.segment(text.slice(start, end))]
    const last = segments[segments.length - 1]!
    if (end < text.length && segments.length > 1) {
      for (const { segment } of segments.slice(0, -1)) yield segment
      start += last.index
    } else {
      for (const { segment } of segments) yield segment
      start = end
    }
  }
}

/** A block's text in pieces of at most `max` characters, whole sentences packed together where they fit. */
function pieces (text: string, max: number): string[] {
  if (text.length <= max) return text === '' ? [] : [text]
  const found: string[] = []
  let current = ''
  for (const segment of sentencesOf(text)) {
    const sentence = segment.trim()
    if (sentence === '') continue
    if (sentence.length > max) {
      if (current !== '') found.push(current)
      current = ''
      found.push(...cutAtWords(sentence, max))
    } else if (current === '') {
      current = sentence
    } else if (current.length + 1 + sentence.length <= max) {
      current += ' ' + sentence
    } else {
      found.push(current)
      current = sentence
    }
  }
  if (current !== '') found.push(current)
  return found
}

/** The last resort for one sentence longer than `max`: cut before a word that would not fit. */
function cutAtWords (sentence: string, max: number): string[] {
  const found: string[] = []
  let current = ''
  for (const { segment } of words.segment(sentence)) {
    if (current.length + segment.length <= max) {
      current += segment
      continue
    }
    if (current.trim() !== '') found.push(current.trim())
    current = segment.trimStart()
    // A "word" longer than max (a URL, a base64 run) is cut where it must be.
    while (current.length > max) {
      const cut = /[\uD800-\uDBFF]/.test(current[max - 1]!) ? max - 1 : max // never half a surrogate pair
      found.push(current.slice(0, cut))
      current = current.slice(cut)
    }
  }
  if (current.trim() !== '') found.push(current.trim())
  return found
}
