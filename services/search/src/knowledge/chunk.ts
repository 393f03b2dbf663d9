/**
 * INTERIM chunker, to be replaced by the real one (same exports) when the knowledge branches merge:
 * consecutive blocks under the same heading make a chunk, up to CHUNK_MAX_CHARS; a longer block is
 * cut between sentences, never inside one.
 */
import type { Block, Chunk, ParsedPage } from './types.js'

/** About what a sentence encoder embeds well, and what a reply can quote. */
const CHUNK_MAX_CHARS = 1200

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })

/** A block's text in pieces of at most CHUNK_MAX_CHARS, cut between sentences (a longer sentence stays whole). */
function pieces (text: string): string[] {
  if (text.length <= CHUNK_MAX_CHARS) return [text]
  const out: string[] = []
  let current = ''
  for (const { segment } of sentences.segment(text)) {
    if (current !== '' && current.length + segment.length > CHUNK_MAX_CHARS) {
      out.push(current.trim())
      current = ''
    }
    current += segment
  }
  if (current.trim() !== '') out.push(current.trim())
  return out
}

function withAnchor (url: string | undefined, anchor: string | undefined): string | undefined {
  if (url === undefined) return undefined
  const base = url.split('#')[0]!
  return anchor === undefined ? base : `${base}#${anchor}`
}

export function chunkPage (page: ParsedPage): Chunk[] {
  const chunks: Chunk[] = []
  let open: { block: Block, text: string } | undefined
  const close = () => {
    if (open === undefined) return
    const url = withAnchor(page.url, open.block.anchor)
    chunks.push({ id: String(chunks.length), section: open.block.path.join(' › '), text: open.text, ...(url === undefined ? {} : { url }) })
    open = undefined
  }
  for (const block of page.blocks) {
    const sameSection = open !== undefined && open.block.path.join('\u0000') === block.path.join('\u0000') && open.block.anchor === block.anchor
    for (const piece of pieces(block.text.trim())) {
      if (piece === '') continue
      if (open !== undefined && (!sameSection || open.text.length + piece.length + 2 > CHUNK_MAX_CHARS)) close()
      if (open === undefined) open = { block, text: piece }
      else open.text += `\n\n${piece}`
    }
  }
  close()
  return chunks
}

/**
 * A question-and-answer pair is one chunk: its answer, found by its question (which the index keeps
 * as the document's title, so the chunk does not repeat it).
 */
export function faqChunks (_question: string, answer: string, url?: string): Chunk[] {
  return [{ id: '0', section: '', text: answer.trim(), ...(url === undefined ? {} : { url }) }]
}
