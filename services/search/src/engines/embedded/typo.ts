/**
 * The trie's node budget per vocabulary: about 60 MB (some 200 bytes a node, its term included). A
 * catalog of real words needs about 2.2 nodes a term (the 1,200 demo items: 4,169 terms, 9,083
 * nodes), so some 130k distinct words get typo tolerance and prefixes; random strings, about 4.4 a term.
 */
export const VOCABULARY_MAX_NODES = 300_000

interface TrieNode {
  /** The letter that leads here, as a code point. */
  code: number
  /**
   * In code-point order, so that walks list terms in the same order whatever order they came in. An
   * array searched by halves: a Map per node made loading 40k terms twice as slow, and the trie larger.
   */
  children: TrieNode[]
  term?: string
}

export interface FuzzyMatch {
  term: string
  distance: number
}

const codePoint = (ch: string) => ch.codePointAt(0)!

/** The place of `code` among `node`'s children: its child's, or where such a child would go. */
function placeOf (node: TrieNode, code: number): number {
  const children = node.children
  let low = 0
  let high = children.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (children[middle]!.code < code) low = middle + 1
    else high = middle
  }
  return low
}

function childOf (node: TrieNode, code: number): TrieNode | undefined {
  const child = node.children[placeOf(node, code)]
  return child?.code === code ? child : undefined
}

/**
 * The index vocabulary as a trie, searched with a bounded optimal-string-alignment distance
 * (Damerau: a swap of two neighbouring letters is one typo, as in Meilisearch). Walking the trie
 * shares the distance rows of common prefixes, so a lookup touches few nodes.
 */
export class Vocabulary {
  readonly #root: TrieNode = { code: -1, children: [] }
  #size = 0
  #version = 0
  #nodeCount = 0
  readonly #maxNodes: number
  readonly #lookup: ((term: string) => boolean) | undefined
  /** Terms refused for want of nodes (none: the trie holds every term added). */
  #refused = 0

  /**
   * `maxNodes` bounds the trie (each node costs about 200 bytes): a knowledge of random words (one
   * 58 MB upload held millions) made millions of nodes and ran the process out of memory. Terms are
   * taken in the order given, most frequent first by the callers, until one does not fit: past that,
   * `has` asks `lookup` (the index's own table of terms), and typos and prefixes reach only the trie.
   */
  constructor (terms: Iterable<string> = [], maxNodes = VOCABULARY_MAX_NODES, lookup?: (term: string) => boolean) {
    this.#maxNodes = maxNodes
    this.#lookup = lookup
    for (const term of terms) if (!this.add(term)) break
  }

  /** Whether a term was refused: the trie then holds only part of the terms. */
  get full (): boolean {
    return this.#refused > 0
  }

  /** Terms in the trie (those past its budget, left to `lookup`, are not counted). */
  get size () {
    return this.#size
  }

  /** Changes whenever a term is added or removed: what was derived from the terms is stale. */
  get version () {
    return this.#version
  }

  /** Adds a term to the trie; false when it would pass the node budget (it is then left to `lookup`). */
  add (term: string): boolean {
    const codes = Array.from(term, codePoint)
    let node = this.#root
    let depth = 0
    for (; depth < codes.length; depth++) {
      const next = childOf(node, codes[depth]!)
      if (next === undefined) break
      node = next
    }
    if (this.#nodeCount + codes.length - depth > this.#maxNodes) {
      this.#refused++
      this.#version++
      return false
    }
    for (; depth < codes.length; depth++) {
      const next: TrieNode = { code: codes[depth]!, children: [] }
      node.children.splice(placeOf(node, next.code), 0, next)
      this.#nodeCount++
      node = next
    }
    if (node.term === undefined) {
      this.#size++
      this.#version++
    }
    node.term = term
    return true
  }

  /**
   * Forgets a term, and the trie nodes that led only to it: a catalog whose words keep changing holds
   * the nodes of the words it has, not of every word it ever had.
   */
  remove (term: string) {
    const path: TrieNode[] = [this.#root]
    // A term outside the trie may be one `lookup` knew: its removal is a change all the same.
    const outside = () => { if (this.full) this.#version++ }
    for (const ch of term) {
      const next = childOf(path[path.length - 1]!, codePoint(ch))
      if (next === undefined) return outside()
      path.push(next)
    }
    const node = path[path.length - 1]!
    if (node.term === undefined) return outside()
    delete node.term
    this.#size--
    this.#version++
    for (let depth = path.length - 1; depth > 0; depth--) {
      const leaf = path[depth]!
      if (leaf.term !== undefined || leaf.children.length > 0) break
      const parent = path[depth - 1]!
      parent.children.splice(placeOf(parent, leaf.code), 1)
      this.#nodeCount--
    }
  }

  /** Trie nodes below the root: what the vocabulary holds in memory, about one per letter of its distinct prefixes. */
  get nodes (): number {
    return this.#nodeCount
  }

  has (term: string): boolean {
    return this.#find(term)?.term !== undefined || (this.full && this.#lookup?.(term) === true)
  }

  /** Terms that start with `prefix`, at most `limit` of them, shortest first. */
  withPrefix (prefix: string, limit: number): string[] {
    const start = this.#find(prefix)
    return start === undefined ? [] : this.#collect(start, limit)
  }

  /**
   * Terms within `maxDistance` typos of `word` (the word itself included when present). As in
   * Meilisearch, a typo on the first letter counts as two: a term that starts with another letter is
   * found only when two typos are allowed and it is one edit away, and its distance is then 2. Besides
   * ranking "watch" far from "batch", it keeps a one-typo walk inside one first letter's branch.
   */
  fuzzy (word: string, maxDistance: number): FuzzyMatch[] {
    const target = Array.from(word, codePoint)
    // One distance row per depth of the walk, allocated once per lookup: a row per trie node made
    // this most of a new word's cost.
    const rows: Int32Array[] = [Int32Array.from({ length: target.length + 1 }, (_, i) => i)]
    const out: FuzzyMatch[] = []
    for (const child of this.#root.children) {
      if (child.code === target[0]) this.#walk(child, -1, target, rows, 1, 0, maxDistance, out)
      else if (maxDistance >= 2) this.#walk(child, -1, target, rows, 1, 0, 1, out, 2)
    }
    return out
  }

  /**
   * Terms that start with something within `maxDistance` typos of `prefix` (completing a word being
   * typed: "hedph" → "headphones"), at most `limit`, closest first.
   */
  fuzzyPrefix (prefix: string, maxDistance: number, limit: number): FuzzyMatch[] {
    const target = [...prefix]
    const firstRow = Array.from({ length: target.length + 1 }, (_, i) => i)
    const starts: Array<{ node: TrieNode, distance: number }> = []
    const visit = (node: TrieNode, ch: string, prevCh: string | undefined, prevRow: number[], prevPrevRow: number[] | undefined) => {
      const row = this.#nextRow(target, ch, prevCh, prevRow, prevPrevRow)
      const distance = row[target.length]!
      // The shortest stem that is close enough stands for its whole subtree.
      if (distance <= maxDistance) { starts.push({ node, distance }); return }
      if (Math.min(...row) > maxDistance) return
      for (const child of node.children) visit(child, String.fromCodePoint(child.code), ch, row, prevRow)
    }
    for (const child of this.#root.children) visit(child, String.fromCodePoint(child.code), undefined, firstRow, undefined)
    starts.sort((a, b) => a.distance - b.distance)
    const out: FuzzyMatch[] = []
    for (const { node, distance } of starts) {
      for (const term of this.#collect(node, limit - out.length)) out.push({ term, distance })
      if (out.length >= limit) break
    }
    return out
  }

  #nextRow (target: string[], ch: string, prevCh: string | undefined, prevRow: number[], prevPrevRow: number[] | undefined): number[] {
    const row = [prevRow[0]! + 1]
    for (let i = 1; i <= target.length; i++) {
      const cost = target[i - 1] === ch ? 0 : 1
      let value = Math.min(row[i - 1]! + 1, prevRow[i]! + 1, prevRow[i - 1]! + cost)
      if (prevPrevRow !== undefined && i > 1 && target[i - 1] === prevCh && target[i - 2] === ch) {
        value = Math.min(value, prevPrevRow[i - 2]! + 1)
      }
      row.push(value)
    }
    return row
  }

  #collect (start: TrieNode, limit: number): string[] {
    const out: string[] = []
    let level: TrieNode[] = [start]
    while (level.length > 0 && out.length < limit) {
      const next: TrieNode[] = []
      for (const node of level) {
        if (node.term !== undefined) out.push(node.term)
        if (out.length >= limit) break
        for (const child of node.children) next.push(child)
      }
      level = next
    }
    return out
  }

  #find (prefix: string): TrieNode | undefined {
    let node: TrieNode | undefined = this.#root
    for (const ch of prefix) {
      node = childOf(node, codePoint(ch))
      if (node === undefined) return undefined
    }
    return node
  }

  /**
   * Visits `node`, reached by its letter after `prevCh` (-1 at the root), at `depth`: fills
   * rows[depth] from the two rows above it (optimal string alignment: a swap of neighbours is one
   * typo), and lists its term when within `max`, at distance `counted` when given.
   */
  #walk (node: TrieNode, prevCh: number, target: number[], rows: Int32Array[], depth: number, prevBest: number, max: number, out: FuzzyMatch[], counted?: number) {
    const n = target.length
    const ch = node.code
    const prev = rows[depth - 1]!
    const prevPrev = depth >= 2 ? rows[depth - 2]! : undefined
    let row = rows[depth]
    if (row === undefined) {
      row = new Int32Array(n + 1)
      rows[depth] = row
    }
    row[0] = prev[0]! + 1
    let best = row[0]
    for (let i = 1; i <= n; i++) {
      const t = target[i - 1]!
      let value = Math.min(row[i - 1]! + 1, prev[i]! + 1, prev[i - 1]! + (t === ch ? 0 : 1))
      if (prevPrev !== undefined && i > 1 && t === prevCh && target[i - 2] === ch) value = Math.min(value, prevPrev[i - 2]! + 1)
      row[i] = value
      if (value < best) best = value
    }
    const distance = row[n]!
    if (node.term !== undefined && distance <= max) out.push({ term: node.term, distance: counted ?? distance })
    // A deeper row is never below this row's minimum, nor the previous row's plus one (a swap).
    if (best > max && prevBest + 1 > max) return
    for (const child of node.children) this.#walk(child, ch, target, rows, depth + 1, best, max, out, counted)
  }
}
